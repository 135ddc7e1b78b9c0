(** Extraction of the checker to OCaml, and the audit of what the theorems rest on. ExtrOcamlBasic
    maps bool, list, option, prod, sumbool and unit to OCaml's own types, constructor for
    constructor; nothing else is mapped (nat and positive stay Coq's unary and binary numbers). *)

From Coq Require Import Extraction ExtrOcamlBasic.
From Verified Require Import Rules Claims Checker Table.

Print Assumptions closed_wins.
Print Assumptions closed_no_loss.
Print Assumptions play_goes_on.
Print Assumptions labels_sound.

Extraction Language OCaml.
Extraction "core.ml" closed labels_closed value_of result children to_move key_of M.empty M.add.
