(** The positional family as an instance of the game interface (Claims.v): its claims, its
    closure check, and the facts the theorems need -- a move fills one empty cell (the measure) and
    keeps the board's size, and where play goes on the side to move has a move. The closure check
    takes any test of closures with a proof of it ([leaf], [leaf_sound]): Pairing.v gives the
    pairings of proof.closures. *)

From Coq Require Import List Bool Arith Lia.
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

(** The packed trees as a set of the interface of Checker.v: the positions the proof reaches, and
    the positions it names as images of others (each with its symmetry's number, Images.v). A board
    is in [S] when its packed key is in the first tree; [all_boards n f S] decodes every key of the
    first tree as a board of [n] cells (the root's size) and asks [f] of it with its stored choice. *)
Definition sets := (bst * bst)%type.

Definition in_set (S : sets) (b : board) : bool :=
  match find (encode b) (fst S) with Some _ => true | None => false end.

Definition all_boards (n : nat) (f : board -> nat -> bool) (S : sets) : bool :=
  all_nodes (fun k c => f (decode n k) c) (fst S).

(** The closure check (Checker.closed) over the packed trees, its entries decoded as boards of the
    root's size: the root is in [S] and every entry is [node_ok] -- with the family's closures
    ([leaf]), images ([image]) and replies ([replies]). *)
Definition closed (g : game) (leaf : player -> bool -> board -> bool) (image : sets -> board -> option board)
  (replies : player -> bool -> (board -> bool) -> board -> bool) (P : player) (no_loss : bool)
  (S : sets) (root : board) : bool :=
  let n := length root in
  Checker.closed board (result g) to_move (children g) sets in_set (all_boards n) leaf image replies P no_loss S root.

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


(** The one fact the set interface asks of the packed tree: a board of [n] cells in [S] has an
    entry, which [all_boards n] decodes as the board itself. *)
Lemma all_nodes_find : forall f t k c, all_nodes f t = true -> find k t = Some c -> f k c = true.
Proof.
  intros f t. induction t as [|l IHl k' c' r IHr]; simpl; intros k c H F; [discriminate|].
  apply andb_prop in H as [H Hr]. apply andb_prop in H as [Hl Hk].
  destruct (packed_compare k k') eqn:C.
  - apply packed_compare_eq in C. injection F as <-. subst. exact Hk.
  - exact (IHl _ _ Hl F).
  - exact (IHr _ _ Hr F).
Qed.

Lemma all_boards_mem : forall n f S b, all_boards n f S = true -> in_set S b = true -> length b = n ->
  exists c, f b c = true.
Proof.
  unfold all_boards, in_set. intros n f S b Hall Hb Hn.
  destruct (find (encode b) (fst S)) as [c|] eqn:F; [|discriminate].
  exists c. pose proof (all_nodes_find _ _ _ _ Hall F) as Hok. simpl in Hok.
  rewrite <- Hn, decode_encode in Hok. exact Hok.
Qed.

(** The closure check's theorem: Checker.closed_sound for the packed trees, with [inv] the boards
    of the root's size (a move keeps the size), for closures, images and replies with their
    proofs. *)
Theorem closed_sound : forall g leaf image replies P no_loss S root,
  (forall P no_loss b, leaf P no_loss b = true ->
     forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) b) ->
  (forall S b t, image S b = Some t -> length b = length root ->
     length t = length root /\ empties t = empties b /\
     forall P ok, forces board (result g) to_move (children g) P ok t -> forces board (result g) to_move (children g) P ok b) ->
  (forall P no_loss mem b, replies P no_loss mem b = true -> result g b = None -> to_move b <> P ->
     forall c, In c (children g b) ->
     mem c = true \/ forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) c) ->
  closed g leaf image replies P no_loss S root = true ->
  forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) root.
Proof.
  intros g leaf image replies P no_loss S root leaf_sound image_sound replies_sound.
  assert (Size : forall b c, length b = length root -> In c (children g b) -> length c = length root).
  { intros b c Hb Hc. destruct (children_counts _ _ _ Hc) as [_ [_ L]]. congruence. }
  exact (Checker.closed_sound board (result g) to_move (children g) sets in_set (all_boards (length root)) leaf
           image replies (fun b => length b = length root) (fun f S b => all_boards_mem (length root) f S b) Size
           empties (children_empties g) leaf_sound image_sound
           (fun P no_loss mem b H R T _ => replies_sound P no_loss mem b H R T) P no_loss S root eq_refl).
Qed.
