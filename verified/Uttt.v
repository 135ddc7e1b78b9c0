(** Ultimate tic-tac-toe, both rule sets, stated plainly as docs/uttt.md and checker/uttt.py
    read them, as an instance of the game interface (Claims.v); the closure check of Checker.v
    proved sound for it.

    Nine local boards of nine cells (both row-major) make the grid. X (player 1) moves first; a
    move puts the mover's mark on an empty cell of a board the mover may play, and sends the
    opponent to the board at the position of that cell. A board is owned by the mark of the first
    line completed in it (kept in [owners]: under the open rules a board may later hold a line of
    the other mark too; the first one counts). The rule sets differ in which boards may be played:
    - [Standard] (won boards closed): a board is open when nobody owns it and it has an empty cell;
    - [OpenRules] (won boards playable): a board is open when it has an empty cell.
    Sent to an open board, the mover plays there; sent nowhere (the first move, or sent to a board
    that is not open: a free move) the mover plays any open board. The game ends when a player owns
    three boards in a line (the meta line): that player wins; or when no board is open: a draw
    (under the open rules, the whole grid is full). A board full without a line is owned by
    nobody: drawn boards count for nobody. *)

From Coq Require Import List Bool Arith Lia PArith.
Import ListNotations.
From Verified Require Import Rules Claims Checker.

Inductive ruleset := Standard | OpenRules.

(** A state: the nine boards' cells, the board the mover is sent to ([None]: any open board), and
    each board's owner ([Empty]: nobody). *)
Record state := { grid : list (list mark); sent : option nat; owners : list mark }.

(** The eight lines of a 3x3 board (local or meta), cells row-major. *)
Definition lines3 : list (list nat) :=
  [[0;1;2]; [3;4;5]; [6;7;8]; [0;3;6]; [1;4;7]; [2;5;8]; [0;4;8]; [2;4;6]].

(** The mark of the first complete line of a 3x3 board in the order of [lines3], or [Empty]. *)
Fixpoint first_line_in (b : list mark) (ls : list (list nat)) : mark :=
  match ls with
  | [] => Empty
  | l :: rest => match complete b l with Some m => m | None => first_line_in b rest end
  end.

Definition first_line (b : list mark) : mark := first_line_in b lines3.

Definition has_empty (b : list mark) : bool := existsb is_empty b.

Definition board (s : state) (i : nat) : list mark := nth i (grid s) [].

(** May board [i] be played? *)
Definition open_board (R : ruleset) (s : state) (i : nat) : bool :=
  match R with
  | Standard => is_empty (nth i (owners s) Empty) && has_empty (board s i)
  | OpenRules => has_empty (board s i)
  end.

Definition boards : list nat := seq 0 9.

(** The meta line wins; with none, the game is drawn when no board is open. *)
Definition result (R : ruleset) (s : state) : option outcome :=
  match first_line (owners s) with
  | Cross => Some (Won P1)
  | Nought => Some (Won P2)
  | Empty => if existsb (open_board R s) boards then None else Some Drawn
  end.

Definition count (m : mark) (s : state) : nat :=
  fold_left (fun n b => fold_left (fun n x => if mark_eqb m x then S n else n) b n) (grid s) 0.

(** X moves when both have as many marks. *)
Definition to_move (s : state) : player :=
  if count Cross s =? count Nought s then P1 else P2.

Definition mark_of (p : player) : mark := match p with P1 => Cross | P2 => Nought end.

(** The boards the mover may play: the board sent to if it is open, else every open board. *)
Definition playable (R : ruleset) (s : state) (i : nat) : bool :=
  match sent s with
  | Some j => if open_board R s j then i =? j else open_board R s i
  | None => open_board R s i
  end.

(** Every way to put [m] on an empty cell of [b]: the cell and the board after, cells ascending. *)
Fixpoint put (m : mark) (b : list mark) : list (nat * list mark) :=
  match b with
  | [] => []
  | x :: rest =>
      (if is_empty x then [(0, m :: rest)] else [])
      ++ map (fun p => (S (fst p), x :: snd p)) (put m rest)
  end.

(** Every move on the boards [ok] allows, numbered from board [i]: the board, the cell and the
    grid after, by board then cell -- the canonical move order. *)
Fixpoint put_grid (ok : nat -> bool) (m : mark) (g : list (list mark)) (i : nat)
  : list (nat * nat * list (list mark)) :=
  match g with
  | [] => []
  | b :: rest =>
      (if ok i then map (fun p => (i, fst p, snd p :: rest)) (put m b) else [])
      ++ map (fun t => (fst (fst t), snd (fst t), b :: snd t)) (put_grid ok m rest (S i))
  end.

Fixpoint replace {A : Type} (i : nat) (x : A) (l : list A) : list A :=
  match i, l with
  | _, [] => []
  | O, _ :: rest => x :: rest
  | S i', y :: rest => y :: replace i' x rest
  end.

(** The state after [m] goes on cell [c] of board [i], the grid becoming [g]: the first line of
    [m] in a board nobody owns makes it [m]'s; the opponent is sent to board [c] if it is open. *)
Definition after (R : ruleset) (s : state) (m : mark) (t : nat * nat * list (list mark)) : state :=
  let '(i, c, g) := t in
  let owned := if is_empty (nth i (owners s) Empty) && mark_eqb (first_line (nth i g [])) m
               then replace i m (owners s) else owners s in
  let s' := {| grid := g; sent := None; owners := owned |} in
  {| grid := g; sent := if open_board R s' c then Some c else None; owners := owned |}.

(** The states after each legal move, in the canonical order; none once the game is over. *)
Definition children (R : ruleset) (s : state) : list state :=
  match result R s with
  | Some _ => []
  | None => let m := mark_of (to_move s) in
            map (after R s m) (put_grid (playable R s) m (grid s) 0)
  end.

(** The [i]th child ([child_nth]), without playing the others: a count closure names one move. *)
Definition child (R : ruleset) (s : state) (i : nat) : option state :=
  match result R s with
  | Some _ => None
  | None => let m := mark_of (to_move s) in option_map (after R s m) (nth_error (put_grid (playable R s) m (grid s) 0) i)
  end.

Lemma child_nth : forall R s i, child R s i = nth_error (children R s) i.
Proof.
  intros R s i. unfold child, children. destruct (result R s); [destruct i; reflexivity|].
  rewrite nth_error_map. reflexivity.
Qed.

(** The claims, as for every game of the interface. *)
Definition wins (R : ruleset) := Claims.wins state (result R) to_move (children R).
Definition does_not_lose (R : ruleset) := Claims.does_not_lose state (result R) to_move (children R).

(** Where the closure check files a state: two bits per cell, then the board sent to, then the
    owners. (Any key would do: the check compares the stored state.) *)
Definition key_mark (m : mark) (k : positive) : positive :=
  match m with Empty => xO (xO k) | Cross => xI (xO k) | Nought => xO (xI k) end.

Definition key_of (s : state) : positive :=
  let k := fold_left (fun k m => key_mark m k) (owners s) xH in
  let k := match sent s with None => xO (xO k) | Some j => Nat.iter j xI (xO (xI k)) end in
  fold_left (fun k b => fold_left (fun k m => key_mark m k) b k) (grid s) k.


Fixpoint marks_eqb (a b : list mark) : bool :=
  match a, b with
  | [], [] => true
  | m :: a', n :: b' => mark_eqb m n && marks_eqb a' b'
  | _, _ => false
  end.

Fixpoint grid_eqb (a b : list (list mark)) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => marks_eqb x y && grid_eqb a' b'
  | _, _ => false
  end.

Definition state_eqb (a b : state) : bool :=
  grid_eqb (grid a) (grid b) && marks_eqb (owners a) (owners b)
  && match sent a, sent b with
     | None, None => true
     | Some i, Some j => i =? j
     | _, _ => false
     end.

(** The closure check for the rule set [R], with any key. *)
Definition closed (R : ruleset) (key : state -> positive) :=
  Checker.trie_closed state (result R) to_move (children R) key state_eqb (fun _ _ _ => false).

(* ---- proofs ---------------------------------------------------------------------------------- *)

Lemma mark_eqb_eq : forall a b, mark_eqb a b = true -> a = b.
Proof. destruct a, b; simpl; congruence. Qed.

Lemma marks_eqb_eq : forall a b, marks_eqb a b = true -> a = b.
Proof.
  induction a as [|m a IH]; destruct b as [|n b]; simpl; try congruence.
  intro H. apply andb_prop in H as [H1 H2]. rewrite (mark_eqb_eq _ _ H1), (IH _ H2). reflexivity.
Qed.

Lemma grid_eqb_eq : forall a b, grid_eqb a b = true -> a = b.
Proof.
  induction a as [|m a IH]; destruct b as [|n b]; simpl; try congruence.
  intro H. apply andb_prop in H as [H1 H2]. rewrite (marks_eqb_eq _ _ H1), (IH _ H2). reflexivity.
Qed.

Lemma state_eqb_eq : forall a b, state_eqb a b = true -> a = b.
Proof.
  intros [ga sa oa] [gb sb ob]. unfold state_eqb. simpl. intro H.
  apply andb_prop in H as [H H3]. apply andb_prop in H as [H1 H2].
  rewrite (grid_eqb_eq _ _ H1), (marks_eqb_eq _ _ H2).
  destruct sa as [i|], sb as [j|]; try discriminate.
  - apply Nat.eqb_eq in H3. subst. reflexivity.
  - reflexivity.
Qed.

(** The measure: the empty cells of the grid. A move fills one. *)
Definition empties_of (b : list mark) : nat := length (filter is_empty b).
Definition empties (s : state) : nat := fold_right (fun b n => empties_of b + n) 0 (grid s).

Lemma put_empties : forall m b c b', is_empty m = false -> In (c, b') (put m b) ->
  S (empties_of b') = empties_of b.
Proof.
  unfold empties_of. intros m b. induction b as [|x rest IH]; simpl; intros c b' Hm H.
  - contradiction.
  - destruct (is_empty x) eqn:E; simpl in H.
    + destruct H as [H|H].
      * injection H as <- <-. simpl. rewrite Hm. reflexivity.
      * apply in_map_iff in H as [[c0 b0] [H Hin]]. injection H as <- <-. simpl. rewrite E.
        simpl. f_equal. exact (IH _ _ Hm Hin).
    + apply in_map_iff in H as [[c0 b0] [H Hin]]. injection H as <- <-. simpl. rewrite E.
      exact (IH _ _ Hm Hin).
Qed.

Definition gempties (g : list (list mark)) : nat := fold_right (fun b n => empties_of b + n) 0 g.

Lemma put_grid_empties : forall ok m g i t, is_empty m = false -> In t (put_grid ok m g i) ->
  S (gempties (snd t)) = gempties g.
Proof.
  intros ok m g. induction g as [|b rest IH]; simpl; intros i t Hm H.
  - contradiction.
  - apply in_app_or in H as [H|H].
    + destruct (ok i); [|contradiction].
      apply in_map_iff in H as [[c b'] [<- Hin]]. simpl.
      rewrite <- (put_empties _ _ _ _ Hm Hin). fold (gempties rest). lia.
    + apply in_map_iff in H as [t' [<- Hin]]. simpl.
      rewrite <- (IH _ _ Hm Hin). lia.
Qed.

Lemma children_empties : forall R s c, In c (children R s) -> empties c < empties s.
Proof.
  unfold children. intros R s c. destruct (result R s); [simpl; contradiction|].
  intro H. apply in_map_iff in H as [[[i cell] g] [<- Hin]].
  assert (Hm : is_empty (mark_of (to_move s)) = false) by (destruct (to_move s); reflexivity).
  pose proof (put_grid_empties _ _ _ _ _ Hm Hin) as E. simpl in E.
  unfold after, empties. simpl. fold (gempties g). fold (gempties (grid s)). lia.
Qed.

(** The two claims of an Ultimate tic-tac-toe certificate. *)
Corollary closed_wins : forall R key P S root, closed R key P false S root = true -> wins R P root.
Proof.
  intros R key. apply (Checker.trie_closed_wins _ _ _ _ _ _ _ state_eqb_eq _ (children_empties R)).
  discriminate.
Qed.

Corollary closed_no_loss : forall R key P S root,
  closed R key P true S root = true -> does_not_lose R P root.
Proof.
  intros R key. apply (Checker.trie_closed_no_loss _ _ _ _ _ _ _ state_eqb_eq _ (children_empties R)).
  discriminate.
Qed.

(* ---- the shape of a move, for the bounded claims and the count closures (Count.v) ------------- *)

(** A move fills exactly one empty cell: the measure of the bounded check (Checker.v) falls by one. *)
Lemma children_exact : forall R s c, In c (children R s) -> S (empties c) = empties s.
Proof.
  unfold children. intros R s c. destruct (result R s); [simpl; contradiction|].
  intro H. apply in_map_iff in H as [[[i cell] g] [<- Hin]].
  assert (Hm : is_empty (mark_of (to_move s)) = false) by (destruct (to_move s); reflexivity).
  pose proof (put_grid_empties _ _ _ _ _ Hm Hin) as E. simpl in E.
  unfold after, empties. simpl. fold (gempties g). fold (gempties (grid s)). exact E.
Qed.

Lemma put_not_nil : forall m b, has_empty b = true -> put m b <> [].
Proof.
  intros m b. induction b as [|x rest IH]; simpl; [discriminate|].
  destruct (is_empty x); simpl; [discriminate|]. intros H E. apply IH; [exact H|].
  destruct (put m rest); [reflexivity|discriminate].
Qed.

Lemma put_grid_not_nil : forall ok m g i0 i, ok (i0 + i) = true -> has_empty (nth i g []) = true ->
  put_grid ok m g i0 <> [].
Proof.
  intros ok m g. induction g as [|b rest IH]; intros i0 i Hok He; [destruct i; discriminate|].
  simpl. destruct i as [|i].
  - rewrite Nat.add_0_r in Hok. rewrite Hok. simpl in He.
    destruct (put m b) eqn:E; [exfalso; exact (put_not_nil m b He E)|discriminate].
  - intro E. apply app_eq_nil in E as [_ E]. apply map_eq_nil in E.
    apply (IH (S i0) i); [rewrite <- Hok; f_equal; lia|exact He|exact E].
Qed.

(** The rules are not vacuous: where play goes on, the side to move has a legal move (so
    [forces_every] never holds for want of moves), under both rule sets and for any state. *)
Lemma play_goes_on : forall R s, result R s = None -> children R s <> [].
Proof.
  intros R s Hr. unfold children. rewrite Hr.
  unfold result in Hr. destruct (first_line (owners s)); try discriminate.
  destruct (existsb (open_board R s) boards) eqn:Ex; [|discriminate].
  apply existsb_exists in Ex as [i [_ Hi]].
  assert (Open : forall j, open_board R s j = true -> has_empty (board s j) = true).
  { intros j. unfold open_board. destruct R; [|trivial]. intro H. apply andb_prop in H as [_ H]. exact H. }
  intro E. apply map_eq_nil in E. revert E.
  destruct (sent s) as [j|] eqn:Hs; [destruct (open_board R s j) eqn:Oj|].
  - apply (put_grid_not_nil _ _ _ 0 j); [unfold playable; rewrite Hs, Oj; apply Nat.eqb_refl|exact (Open _ Oj)].
  - apply (put_grid_not_nil _ _ _ 0 i); [unfold playable; rewrite Hs, Oj; exact Hi|exact (Open _ Hi)].
  - apply (put_grid_not_nil _ _ _ 0 i); [unfold playable; rewrite Hs; exact Hi|exact (Open _ Hi)].
Qed.

Lemma put_shape : forall m b k b', In (k, b') (put m b) ->
  k < length b /\ nth k b Empty = Empty /\ b' = replace k m b.
Proof.
  intros m b. induction b as [|x rest IH]; simpl; intros k b' H; [contradiction|].
  apply in_app_or in H as [H|H].
  - destruct (is_empty x) eqn:E; [|contradiction]. destruct H as [H|[]]. injection H as <- <-.
    destruct x; try discriminate. repeat split; lia.
  - apply in_map_iff in H as [[k0 b0] [H Hin]]. injection H as <- <-.
    destruct (IH _ _ Hin) as [L [N ->]]. simpl. repeat split; [lia|exact N].
Qed.

Lemma put_grid_shape : forall ok m g i0 j k g', In (j, k, g') (put_grid ok m g i0) ->
  exists j' b', j = i0 + j' /\ ok j = true /\ j' < length g /\ In (k, b') (put m (nth j' g [])) /\ g' = replace j' b' g.
Proof.
  intros ok m g. induction g as [|b rest IH]; simpl; intros i0 j k g' H; [contradiction|].
  apply in_app_or in H as [H|H].
  - destruct (ok i0) eqn:Ok; [|contradiction]. apply in_map_iff in H as [[k0 b0] [H Hin]].
    injection H as <- <- <-. exists 0, b0. rewrite Nat.add_0_r. repeat split; [exact Ok|lia|exact Hin].
  - apply in_map_iff in H as [[[j0 k0] g0] [H Hin]]. injection H as <- <- <-. simpl.
    destruct (IH _ _ _ _ Hin) as [j' [b' [-> [Ok [L [P ->]]]]]].
    exists (S j'), b'. repeat split; [lia|exact Ok|simpl; lia|exact P].
Qed.

Lemma nth_replace_other : forall (A : Type) i j (x d : A) l, i <> j -> nth i (replace j x l) d = nth i l d.
Proof.
  intros A i j x d l. revert i j. induction l as [|y l IH]; intros i j H; [destruct j; reflexivity|].
  destruct j, i; simpl; try reflexivity; [lia|]. apply IH. lia.
Qed.

Lemma nth_replace_same : forall (A : Type) j (x d : A) l, j < length l -> nth j (replace j x l) d = x.
Proof.
  intros A j x d l. revert j. induction l as [|y l IH]; intros j H; [simpl in H; lia|].
  destruct j; simpl; [reflexivity|]. apply IH. simpl in H. lia.
Qed.

(** A move, as the count closures need it: the mover's mark [m] goes on an empty cell [k] of a
    board [j] the mover may play; no other board changes, nor any other board's owner; board [j]
    becomes [m]'s only if nobody owned it and [m] then has its first line. *)
Lemma child_shape : forall R s c, In c (children R s) ->
  result R s = None /\
  exists j k, playable R s j = true /\ k < length (board s j) /\ nth k (board s j) Empty = Empty /\
    board c j = replace k (mark_of (to_move s)) (board s j) /\
    (forall i, i <> j -> board c i = board s i /\ nth i (owners c) Empty = nth i (owners s) Empty) /\
    (nth j (owners c) Empty = nth j (owners s) Empty \/
     (nth j (owners s) Empty = Empty /\ nth j (owners c) Empty = mark_of (to_move s) /\
      first_line (board c j) = mark_of (to_move s))) /\
    grid c = replace j (board c j) (grid s) /\
    sent c = (if open_board R {| grid := grid c; sent := None; owners := owners c |} k then Some k else None).
Proof.
  unfold children. intros R s c. destruct (result R s); [simpl; contradiction|]. intro H. split; [reflexivity|].
  apply in_map_iff in H as [[[j k] g] [<- Hin]].
  destruct (put_grid_shape _ _ _ _ _ _ _ Hin) as [j' [b' [Hj [Ok [L [Put ->]]]]]]. simpl in Hj. subst j'.
  destruct (put_shape _ _ _ _ Put) as [Lk [Ek ->]].
  assert (Bj : board (after R s (mark_of (to_move s)) (j, k, replace j (replace k (mark_of (to_move s)) (nth j (grid s) [])) (grid s))) j
               = replace k (mark_of (to_move s)) (board s j)) by (unfold after, board; simpl; apply nth_replace_same; exact L).
  exists j, k. unfold board in *. repeat split; try assumption.
  - unfold after. simpl. apply nth_replace_other. exact H.
  - unfold after. simpl. destruct (is_empty (nth j (owners s) Empty) && _); [|reflexivity].
    apply nth_replace_other. exact H.
  - rewrite Bj. unfold after. simpl.
    destruct (is_empty (nth j (owners s) Empty)) eqn:E1; simpl; [|left; reflexivity].
    destruct (mark_eqb (first_line (nth j (replace j (replace k (mark_of (to_move s)) (nth j (grid s) [])) (grid s)) [])) (mark_of (to_move s))) eqn:E2;
      [|left; reflexivity].
    destruct (Nat.lt_ge_cases j (length (owners s))) as [Lo|Lo].
    + right. repeat split.
      * destruct (nth j (owners s) Empty); try discriminate; reflexivity.
      * apply nth_replace_same. exact Lo.
      * apply mark_eqb_eq in E2. rewrite nth_replace_same in E2 by exact L. exact E2.
    + left. rewrite !nth_overflow; [reflexivity|lia|]. clear -Lo. revert j Lo. induction (owners s) as [|y l IH]; intros j Lo; [destruct j; simpl; lia|].
      destruct j; simpl in *; [lia|]. specialize (IH j ltac:(lia)). lia.
  - rewrite Bj. reflexivity.
Qed.
