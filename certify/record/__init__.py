"""The published record: certificates, their schema and format, positions, and `certify publish`."""
