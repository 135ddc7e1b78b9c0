(** The positional family as an instance of the game interface (Claims.v): its claims, its key
    and equality of boards, and the two facts the theorems need -- a move fills one empty cell
    (the measure), and where play goes on the side to move has a move. Its closure check, whose
    closures are pairings, is in Pairing.v. *)

From Coq Require Import List Bool Arith Lia PArith.
Import ListNotations.
From Verified Require Import Rules Claims Checker.

(** The claims about a positional game [g]. *)
Definition wins (g : game) := Claims.wins board (result g) to_move (children g).
Definition does_not_lose (g : game) := Claims.does_not_lose board (result g) to_move (children g).

(** Two bits per cell, outermost first, ending in [xH]: where the closure check files a board. *)
Fixpoint key_of (b : board) : positive :=
  match b with
  | [] => xH
  | Empty :: r => xO (xO (key_of r))
  | Cross :: r => xI (xO (key_of r))
  | Nought :: r => xO (xI (key_of r))
  end.

Fixpoint board_eqb (a b : board) : bool :=
  match a, b with
  | [], [] => true
  | m :: a', n :: b' => mark_eqb m n && board_eqb a' b'
  | _, _ => false
  end.


(* ---- proofs ---------------------------------------------------------------------------------- *)

Lemma mark_eqb_eq : forall a b, mark_eqb a b = true -> a = b.
Proof. destruct a, b; simpl; congruence. Qed.

Lemma board_eqb_eq : forall a b, board_eqb a b = true -> a = b.
Proof.
  induction a as [|m a IH]; destruct b as [|n b]; simpl; try congruence.
  intro H. apply andb_prop in H as [H1 H2].
  rewrite (mark_eqb_eq _ _ H1), (IH _ H2). reflexivity.
Qed.

(** Every move fills one empty cell with a mark. *)
Lemma fills_empties : forall ms b c,
  Forall (fun m => is_empty m = false) ms -> In c (fills ms b) -> empties c < empties b.
Proof.
  unfold empties. intros ms b c Hms. revert c. induction b as [|m b IH]; simpl; intros c H.
  - contradiction.
  - destruct (is_empty m) eqn:E.
    + apply in_app_or in H as [H|H].
      * apply in_map_iff in H as [m' [<- Hm']]. simpl.
        rewrite (proj1 (Forall_forall _ _) Hms m' Hm'). simpl. lia.
      * apply in_map_iff in H as [c' [<- Hc']]. simpl. rewrite E. simpl.
        specialize (IH _ Hc'). lia.
    + apply in_map_iff in H as [c' [<- Hc']]. simpl. rewrite E.
      exact (IH _ Hc').
Qed.

Lemma placeable_marks : forall g p, Forall (fun m => is_empty m = false) (placeable g p).
Proof. intros [l mr gl] p. destruct mr, p; simpl; repeat constructor. Qed.

Lemma children_empties : forall g b c, In c (children g b) -> empties c < empties b.
Proof.
  unfold children. intros g b c. destruct (result g b).
  - simpl. contradiction.
  - apply fills_empties, placeable_marks.
Qed.


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
