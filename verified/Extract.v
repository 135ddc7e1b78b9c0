(** Extraction of the checker to OCaml, and the audit of what the theorems rest on. ExtrOcamlBasic
    maps bool, list, option, prod, sumbool and unit to OCaml's own types, constructor for
    constructor; nothing else is mapped (nat and positive stay Coq's unary and binary numbers).
    The names below are the driver's: each is exactly the Rocq definition it stands for. *)

From Coq Require Import Extraction ExtrOcamlBasic.
From Verified Require Import Rules Claims Checker Packed Positional Table Uttt Pairing Count Bounded Blocks Images Strategy.

Print Assumptions Checker.closed_sound.
Print Assumptions Checker.closed_within_sound.
Print Assumptions Positional.closed_sound.
Print Assumptions Blocks.replies_sound.
Print Assumptions Images.image_sound.
Print Assumptions Strategy.closed_wins.
Print Assumptions Strategy.closed_no_loss.
Print Assumptions Positional.play_goes_on.
Print Assumptions labels_sound.
Print Assumptions Uttt.closed_wins.
Print Assumptions Uttt.closed_no_loss.
Print Assumptions pairing_check_sound.
Print Assumptions Uttt.play_goes_on.
Print Assumptions Count.count_ok_sound.
Print Assumptions Count.record_ok_sound.
Print Assumptions Count.closed_claims.
Print Assumptions Count.closed_within_claims.
Print Assumptions Bounded.closed_within_claims.
Print Assumptions decode_encode.

Definition positional_closed := Strategy.closed.
Definition uttt_closed := Count.closed.
Definition uttt_closed_within := Count.closed_within.
Definition uttt_needed := Count.counted.
Definition uttt_empties := Uttt.empties.
Definition uttt_count_ok := Count.count_ok.
Definition uttt_record_ok := Count.record_ok.
Definition positional_closed_within := Bounded.closed_within.
Definition uttt_result := Uttt.result.
Definition uttt_children := Uttt.children.
Definition uttt_to_move := Uttt.to_move.
Definition uttt_key := Uttt.key_of.

(* The generic closure checks (Checker.v) inlined into their instances, so that the extracted
   check calls the set's membership and walk directly, as it did before the set interface. *)
Extraction Inline Checker.closed Checker.node_ok Checker.member Checker.every_reply Checker.closed_within Checker.node_within Positional.all_boards Checker.trie_entries.

Extraction Language OCaml.
Extraction "core.ml" positional_closed pack5 labels_closed value_of Rules.result Rules.children
  Rules.to_move positional_closed_within uttt_closed uttt_closed_within uttt_needed uttt_empties uttt_count_ok uttt_record_ok
  uttt_result uttt_children uttt_to_move uttt_key Uttt.Build_state M.empty M.add
  pairing_check.
