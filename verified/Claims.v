(** What a certificate of kind [strategy] claims: player [P] can force the game, from a position,
    to end in an outcome the claim accepts -- a win for [P], or anything but a loss. *)

From Coq Require Import List.
From Verified Require Import Rules.

(** [forces g P ok b]: from [b], player [P] can make every play end in an outcome satisfying [ok].
    At an end, the outcome does; where [P] moves, some move leads to such a position; where the
    opponent moves, every move does. *)
Inductive forces (g : game) (P : player) (ok : outcome -> Prop) : board -> Prop :=
  | forces_end : forall b o,
      result g b = Some o -> ok o -> forces g P ok b
  | forces_choose : forall b c,
      result g b = None -> to_move b = P -> In c (children g b) -> forces g P ok c -> forces g P ok b
  | forces_every : forall b,
      result g b = None -> to_move b <> P ->
      (forall c, In c (children g b) -> forces g P ok c) -> forces g P ok b.

(** Player [P] wins from [b]. *)
Definition wins (g : game) (P : player) (b : board) : Prop :=
  forces g P (fun o => o = Won P) b.

(** Player [P] does not lose from [b]: every play ends in a win for [P] or a draw. *)
Definition does_not_lose (g : game) (P : player) (b : board) : Prop :=
  forces g P (fun o => o <> Won (other P)) b.

(** The definitions are not vacuous: where play goes on, the side to move has a legal move (so
    [forces_every] never holds for want of moves). *)
Lemma result_none_not_full : forall g b, result g b = None -> full b = false.
Proof.
  unfold result. intros g b. destruct (goal_of g); [destruct (some_complete g b)..|];
    destruct (full b); congruence.
Qed.

Lemma fills_not_nil : forall ms b, ms <> nil -> full b = false -> fills ms b <> nil.
Proof.
  intros ms b Hms. induction b as [|m b IH]; simpl; [discriminate|].
  destruct (is_empty m); simpl.
  - destruct ms; [contradiction|discriminate].
  - intros Hf Hnil. apply IH; [exact Hf|]. destruct (fills ms b); [reflexivity|discriminate].
Qed.

Lemma play_goes_on : forall g b, result g b = None -> children g b <> nil.
Proof.
  intros g b R. unfold children. rewrite R. apply fills_not_nil.
  - destruct g as [l [] gl], (to_move b); discriminate.
  - exact (result_none_not_full _ _ R).
Qed.
