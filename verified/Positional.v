(** The positional family as an instance of the game interface (Claims.v): its claims, its
    closure check, and the facts the theorems need -- a move fills one empty cell (the measure) and
    keeps the board's size, and where play goes on the side to move has a move. The closure check
    takes any test of closures with a proof of it ([leaf], [leaf_sound]): Pairing.v gives the
    pairings of proof.closures. *)

From Coq Require Import List Bool Arith Lia Wellfounded.
Import ListNotations.
From Verified Require Import Rules Claims Checker Packed.

(** The claims about a positional game [g]. *)
Definition wins (g : game) := Claims.wins board (result g) to_move (children g).
Definition does_not_lose (g : game) := Claims.does_not_lose board (result g) to_move (children g).

(** The set of positions a proof tree reaches: a binary search tree of packed boards (Packed.v),
    each with the index of the prover's chosen move (ignored at the opponent's positions and at
    ends). The driver builds it balanced, in [packed_compare]'s order, from what its traversal saw;
    nothing about its shape is trusted: [find] answers only with an entry whose key is the one asked
    for, and the check looks at every entry. (Checker.v's trie keeps each state beside its key; a
    positional board is its key, so here the board is decoded from the key instead: 56 bytes a
    position of a 5x5 board, where the board as a list under a 50-bit trie path took about 1.4 KB.) *)
Inductive bst := Tip | Bin (l : bst) (k : packed) (c : nat) (r : bst).

Fixpoint find (k : packed) (t : bst) : option nat :=
  match t with
  | Tip => None
  | Bin l k' c r => match packed_compare k k' with Eq => Some c | Lt => find k l | Gt => find k r end
  end.

(** [f] holds for every entry of the tree. *)
Fixpoint all_nodes (f : packed -> nat -> bool) (t : bst) : bool :=
  match t with
  | Tip => true
  | Bin l k c r => all_nodes f l && f k c && all_nodes f r
  end.

Section Closure.
Variable g : game.
Variable leaf : player -> bool -> board -> bool.

Definition in_set (S : bst) (b : board) : bool :=
  match find (encode b) S with Some _ => true | None => false end.

(** One position of [S], as Checker.node_ok: an end satisfies the claim; at the prover's turn the
    position is a closure or the chosen child is in [S]; at the opponent's every child is. *)
Definition node_ok (P : player) (no_loss : bool) (S : bst) (b : board) (c : nat) : bool :=
  match result g b with
  | Some o => accepts no_loss P o
  | None =>
      if player_eqb (to_move b) P then
        leaf P no_loss b || match nth_error (children g b) c with Some ch => in_set S ch | None => false end
      else forallb (in_set S) (children g b)
  end.

(** The closure check: the root is in [S] and every entry of [S], decoded as a board of the root's
    size, is [node_ok]. *)
Definition closed (P : player) (no_loss : bool) (S : bst) (root : board) : bool :=
  let n := length root in in_set S root && all_nodes (fun k c => node_ok P no_loss S (decode n k) c) S.
End Closure.

(* ---- proofs ---------------------------------------------------------------------------------- *)

Lemma mark_eqb_eq : forall a b, mark_eqb a b = true -> a = b.
Proof. destruct a, b; simpl; congruence. Qed.

(** Every move fills one empty cell with a mark: one empty cell fewer, one mark more, the same size. *)
Lemma fills_counts : forall ms b c, Forall (fun m => is_empty m = false) ms -> In c (fills ms b) ->
  S (empties c) = empties b /\ placed c = S (placed b) /\ length c = length b.
Proof.
  unfold empties, placed. intros ms b c Hms. revert c. induction b as [|m b IH]; simpl; intros c H.
  - contradiction.
  - destruct (is_empty m) eqn:E.
    + apply in_app_or in H as [H|H].
      * apply in_map_iff in H as [m' [<- Hm']]. simpl.
        rewrite (proj1 (Forall_forall _ _) Hms m' Hm'). simpl. auto.
      * apply in_map_iff in H as [c' [<- Hc']]. simpl. rewrite E. simpl.
        destruct (IH _ Hc') as [H1 [H2 H3]]. lia.
    + apply in_map_iff in H as [c' [<- Hc']]. simpl. rewrite E. simpl.
      destruct (IH _ Hc') as [H1 [H2 H3]]. lia.
Qed.

Lemma placeable_marks : forall g p, Forall (fun m => is_empty m = false) (placeable g p).
Proof. intros [l mr gl] p. destruct mr, p; simpl; repeat constructor. Qed.

Lemma children_counts : forall g b c, In c (children g b) ->
  S (empties c) = empties b /\ placed c = S (placed b) /\ length c = length b.
Proof.
  unfold children. intros g b c. destruct (result g b).
  - simpl. contradiction.
  - apply fills_counts, placeable_marks.
Qed.

Lemma children_empties : forall g b c, In c (children g b) -> empties c < empties b.
Proof. intros g b c H. destruct (children_counts _ _ _ H) as [E _]. lia. Qed.

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


(** The closure check's theorem: if it accepts, the prover can force an accepted outcome from every
    board of [S] of the root's size, the root included. By well-founded induction on the empty
    cells, as Checker.closed_sound. *)
Lemma all_nodes_find : forall f t k c, all_nodes f t = true -> find k t = Some c -> f k c = true.
Proof.
  intros f t. induction t as [|l IHl k' c' r IHr]; simpl; intros k c H F; [discriminate|].
  apply andb_prop in H as [H Hr]. apply andb_prop in H as [Hl Hk].
  destruct (packed_compare k k') eqn:C.
  - apply packed_compare_eq in C. injection F as <-. subst. exact Hk.
  - exact (IHl _ _ Hl F).
  - exact (IHr _ _ Hr F).
Qed.

Theorem closed_sound : forall g leaf,
  (forall P no_loss b, leaf P no_loss b = true ->
     forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) b) ->
  forall P no_loss S root, closed g leaf P no_loss S root = true ->
  forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) root.
Proof.
  intros g leaf leaf_sound P no_loss St root Hc. unfold closed in Hc.
  apply andb_prop in Hc as [Hr Hall].
  assert (H : forall b : board, length b = length root -> in_set St b = true ->
              forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) b).
  { intro b. induction b as [b IH] using (well_founded_induction (wf_inverse_image _ nat _ empties lt_wf)).
    intros Hn Hb. unfold in_set in Hb. destruct (find (encode b) St) as [c|] eqn:F; [|discriminate].
    pose proof (all_nodes_find _ _ _ _ Hall F) as Hok. simpl in Hok.
    rewrite <- Hn, decode_encode in Hok. unfold node_ok in Hok.
    assert (Child : forall ch, In ch (children g b) -> in_set St ch = true ->
              forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) ch).
    { intros ch Hin. destruct (children_counts _ _ _ Hin) as [E [_ L]].
      apply IH; [unfold empties in *; lia|congruence]. }
    destruct (result g b) as [o|] eqn:R.
    - exact (forces_end _ _ _ _ _ _ _ _ R Hok).
    - destruct (player_eqb (to_move b) P) eqn:T.
      + apply player_eqb_eq in T.
        destruct (leaf P no_loss b) eqn:Lf; [exact (leaf_sound _ _ _ Lf)|]. simpl in Hok.
        destruct (nth_error (children g b) c) as [ch|] eqn:N; [|discriminate].
        apply nth_error_In in N. exact (forces_choose _ _ _ _ _ _ _ _ R T N (Child _ N Hok)).
      + apply forces_every; [exact R| |].
        * intro E. apply player_eqb_eq in E. congruence.
        * intros ch Hch. exact (Child _ Hch (proj1 (forallb_forall _ _) Hok _ Hch)). }
  exact (H root eq_refl Hr).
Qed.
