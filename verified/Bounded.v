(** Bounded claims ([claim.within] N) about positional games: the bounded closure check of
    Checker.v for the positional family, with pairings as closures (a pairing proves "does not
    lose" from its position, so "not beaten within" any number of plies left). Its own file, so the
    positional instance (Positional.v, Pairing.v) is unchanged. *)

From Coq Require Import List Bool Arith Lia PArith.
Import ListNotations.
From Verified Require Import Rules Claims Checker Positional Pairing.
From Verified Require Uttt.

(** A move fills exactly one empty cell: the ply is counted by the empty cells. *)
Lemma fills_exact : forall ms b c,
  Forall (fun m => is_empty m = false) ms -> In c (fills ms b) -> S (empties c) = empties b.
Proof.
  unfold empties. intros ms b c Hms. revert c. induction b as [|m b IH]; simpl; intros c H.
  - contradiction.
  - destruct (is_empty m) eqn:E.
    + apply in_app_or in H as [H|H].
      * apply in_map_iff in H as [m' [<- Hm']]. simpl.
        rewrite (proj1 (Forall_forall _ _) Hms m' Hm'). simpl. reflexivity.
      * apply in_map_iff in H as [c' [<- Hc']]. simpl. rewrite E. simpl.
        rewrite (IH _ Hc'). reflexivity.
    + apply in_map_iff in H as [c' [<- Hc']]. simpl. rewrite E.
      exact (IH _ Hc').
Qed.

Lemma children_exact : forall g b c, In c (children g b) -> S (empties c) = empties b.
Proof.
  unfold children. intros g b c. destruct (result g b).
  - simpl. contradiction.
  - apply fills_exact, placeable_marks.
Qed.

(** A pairing closes a position whatever the plies left. *)
Definition pairing_leaf_within (g : game) closure (P : player) (no_loss : bool) (_ : nat) (b : board) : bool :=
  pairing_leaf g closure P no_loss b.

Lemma pairing_leaf_within_sound : forall g closure P no_loss n b, pairing_leaf_within g closure P no_loss n b = true ->
  forces_within board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) (no_loss = true) n b.
Proof.
  unfold pairing_leaf_within. intros g closure P no_loss n b H.
  apply forces_forces_within; [|exact (pairing_leaf_sound _ _ _ _ _ H)].
  unfold pairing_leaf in H. destruct (closure b) as [[? ?]|]; [|discriminate].
  apply andb_prop in H as [N _]. exact N.
Qed.

Definition closed_within (g : game) (key : board -> positive) closure :=
  Checker.trie_closed_within board (result g) to_move (children g) key Uttt.marks_eqb empties (pairing_leaf_within g closure).

Definition wins_within (g : game) := Claims.wins_within board (result g) to_move (children g).
Definition does_not_lose_within (g : game) := Claims.does_not_lose_within board (result g) to_move (children g).

(** The claims of a bounded positional certificate: Checker.v's [closed_within_claims] for this
    game (a bound [M] past the root's empty cells is checked at the empty cells plus one, [N]). *)
Corollary closed_within_claims : forall g key closure P N M S root, M = N \/ (empties root < N /\ N <= M) ->
  (closed_within g key closure P false N S root = true -> wins_within g P M root) /\
  (closed_within g key closure P true N S root = true -> does_not_lose_within g P M root).
Proof.
  intros g key closure.
  exact (Checker.trie_closed_within_claims _ _ _ _ _ _ Uttt.marks_eqb_eq _ (children_empties g) _ (children_exact g)
           (pairing_leaf_within_sound g closure)).
Qed.
