"""Layer: named players — every built-in policy by name (general and the papers') and policies loaded from a spec."""
