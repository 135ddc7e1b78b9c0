(** Positions named as symmetric images of others (proof.symmetries, move byte 253,
    checker/proof.py): a permutation [pi] of the cells that maps the set of lines onto itself maps
    every position to one the prover holds as well. [act pi b] is the board whose cell [k] holds
    what cell [nth k pi] of [b] holds; [valid] checks [pi] (a permutation of the [n] cells, every
    line's image a line and every line an image, own marks and a first-line goal); [forces_back]
    proves that what the prover forces from [act pi b] it forces from [b], by induction on the
    play: the moves of [act pi b] are the images of the moves of [b], its result is [b]'s.

    The set keeps the positions named as images in its second tree, each with its permutation's
    number; [image] finds a board there and gives its image, which must be in the first tree
    (Checker.v's [member]). *)

From Coq Require Import List Bool Arith Lia Permutation.
Import ListNotations.
From Verified Require Import Rules Claims Checker Packed Positional Table Pairing Blocks.

Definition act (pi : list nat) (b : board) : board := map (cell_at b) pi.

Definition has (x : nat) (l : list nat) : bool := existsb (Nat.eqb x) l.

(** Two lists of the same cells. *)
Definition same_cells (A B : list nat) : bool := forallb (fun x => has x B) A && forallb (fun x => has x A) B.

(** The cells of a line of [act pi b] in [b]. *)
Definition moved (pi : list nat) (L : list nat) : list nat := map (fun d => nth d pi 0) L.

Definition valid (g : game) (n : nat) (pi : list nat) : bool :=
  match marks g, goal_of g with
  | Own, FirstLineWins | Own, FirstLineLoses =>
      (length pi =? n) && forallb (fun i => i <? n) pi && nodupb pi
      && forallb (forallb (fun d => d <? n)) (lines g)
      && forallb (fun L => existsb (same_cells (moved pi L)) (lines g)) (lines g)
      && forallb (fun L' => existsb (fun L => same_cells (moved pi L) L') (lines g)) (lines g)
  | _, _ => false
  end.

(** The proof's permutations, each checked once, for boards of [n] cells: [None] for one that is
    not a symmetry (an image by it is refused). *)
Definition validate (g : game) (n : nat) (syms : list (list nat)) : list (option (list nat)) :=
  map (fun pi => if valid g n pi then Some pi else None) syms.

Definition image (vs : list (option (list nat))) (S : sets) (b : board) : option board :=
  match find (encode b) (snd S) with
  | Some j => match nth_error vs j with Some (Some pi) => Some (act pi b) | _ => None end
  | None => None
  end.

(* ---- proofs ---------------------------------------------------------------------------------- *)

Lemma has_in : forall x l, has x l = true -> In x l.
Proof.
  unfold has. intros x l H. apply existsb_exists in H as [y [Hy E]]. apply Nat.eqb_eq in E. subst. exact Hy.
Qed.

Lemma perm_filter_length : forall (A : Type) (f : A -> bool) l l', Permutation l l' ->
  length (filter f l) = length (filter f l').
Proof.
  intros A f l l' H. induction H as [|x l l' _ IH|x y l|l l' l'' _ IH1 _ IH2]; simpl.
  - reflexivity.
  - destruct (f x); simpl; lia.
  - destruct (f x), (f y); reflexivity.
  - lia.
Qed.

Lemma perm_forallb : forall (A : Type) (f : A -> bool) l l', Permutation l l' -> forallb f l = forallb f l'.
Proof.
  intros A f l l' H. induction H as [|x l l' _ IH|x y l|l l' l'' _ IH1 _ IH2]; simpl.
  - reflexivity.
  - rewrite IH. reflexivity.
  - destruct (f x), (f y); reflexivity.
  - congruence.
Qed.

Lemma complete_some : forall b L m, complete b L = Some m -> L <> [] /\ m <> Empty.
Proof.
  intros b [|c0 rest] m; simpl; [discriminate|].
  destruct (is_empty (cell_at b c0)) eqn:E; [discriminate|].
  destruct (forallb _ rest); [|discriminate]. intro H. injection H as <-. split; [discriminate|].
  intro Z. rewrite Z in E. discriminate.
Qed.

(** Lines of the same cells are complete alike. *)
Lemma same_complete : forall b A B, same_cells A B = true -> complete b A = complete b B.
Proof.
  unfold same_cells. intros b A B H. apply andb_prop in H as [AB BA].
  assert (Dir : forall A B, forallb (fun x => has x B) A = true -> forallb (fun x => has x A) B = true ->
            forall m, complete b A = Some m -> complete b B = Some m).
  { intros X Y XY YX m C. destruct (complete_some _ _ _ C) as [Nx Nm].
    apply complete_of; [|exact Nm|].
    - destruct X as [|x X]; [contradiction|]. intro E. subst Y.
      exact (has_in _ _ (proj1 (forallb_forall _ _) XY x (or_introl eq_refl))).
    - intros d Hd. exact (complete_all _ _ _ C d (has_in _ _ (proj1 (forallb_forall _ _) YX d Hd))). }
  destruct (complete b A) as [m|] eqn:CA; [symmetry; exact (Dir _ _ AB BA m CA)|].
  destruct (complete b B) as [m|] eqn:CB; [|reflexivity].
  rewrite (Dir _ _ BA AB m CB) in CA. discriminate.
Qed.

Section Images.
Variable g : game.
Variable n : nat.
Variable pi : list nat.
Variable own : marks g = Own.
Variable first : goal_of g = FirstLineWins \/ goal_of g = FirstLineLoses.
Variable Len : length pi = n.
Variable Lt : forall i, In i pi -> i < n.
Variable ND : NoDup pi.
Variable LinesLt : forall L d, In L (lines g) -> In d L -> d < n.
Variable Fwd : forall L, In L (lines g) -> exists L', In L' (lines g) /\ same_cells (moved pi L) L' = true.
Variable Onto : forall L', In L' (lines g) -> exists L, In L (lines g) /\ same_cells (moved pi L) L' = true.

Lemma perm_seq : Permutation pi (seq 0 n).
Proof.
  apply NoDup_Permutation_bis; [exact ND|rewrite seq_length, Len; lia|].
  intros i Hi. apply in_seq. pose proof (Lt i Hi). lia.
Qed.

Lemma onto_cells : forall y, y < n -> exists k, k < n /\ nth k pi 0 = y.
Proof.
  intros y Hy. assert (In y pi) as I by (apply (Permutation_in _ (Permutation_sym perm_seq)), in_seq; lia).
  destruct (In_nth _ _ 0 I) as [k [Hk E]]. exists k. rewrite <- Len. auto.
Qed.

Lemma act_length : forall b, length (act pi b) = n.
Proof. intro b. unfold act. rewrite map_length. exact Len. Qed.

Lemma cell_act : forall b k, k < n -> cell_at (act pi b) k = cell_at b (nth k pi 0).
Proof.
  intros b k Hk. unfold act. unfold cell_at at 1.
  rewrite (nth_indep _ Empty (cell_at b 0)) by (rewrite map_length, Len; exact Hk).
  apply map_nth.
Qed.

Lemma act_perm : forall b, length b = n -> Permutation (act pi b) b.
Proof.
  intros b Hb. assert (E : map (cell_at b) (seq 0 n) = b).
  { apply (nth_ext _ _ Empty Empty); [rewrite map_length, seq_length; auto|].
    intros k Hk. rewrite map_length, seq_length in Hk. unfold cell_at at 1.
    rewrite (nth_indep _ Empty (cell_at b 0)) by (rewrite map_length, seq_length; exact Hk).
    rewrite map_nth, seq_nth by exact Hk. reflexivity. }
  unfold act. rewrite <- E at 2. apply Permutation_map, perm_seq.
Qed.

Lemma complete_act : forall b L, In L (lines g) -> complete (act pi b) L = complete b (moved pi L).
Proof.
  intros b L HL. destruct L as [|c0 rest]; [reflexivity|]. unfold moved. simpl.
  rewrite (cell_act b c0 (LinesLt _ _ HL (or_introl eq_refl))).
  destruct (is_empty (cell_at b (nth c0 pi 0))); [reflexivity|].
  replace (forallb (fun d => mark_eqb (cell_at (act pi b) d) (cell_at b (nth c0 pi 0))) rest)
    with (forallb (fun d => mark_eqb (cell_at b d) (cell_at b (nth c0 pi 0))) (map (fun d => nth d pi 0) rest));
    [reflexivity|].
  assert (All : forall d, In d rest -> d < n) by (intros d Hd; exact (LinesLt _ _ HL (or_intror Hd))).
  clear HL. induction rest as [|d rest IH]; simpl; [reflexivity|].
  rewrite (cell_act b d (All d (or_introl eq_refl))), IH; [reflexivity|].
  intros d' Hd'. exact (All d' (or_intror Hd')).
Qed.

Lemma some_complete_act : forall b, some_complete g (act pi b) = some_complete g b.
Proof.
  intro b. destruct (some_complete g b) eqn:Sb.
  - destruct (some_complete_true g b Sb) as [L' [m [HL' C]]]. destruct (Onto L' HL') as [L [HL Same]].
    apply existsb_exists. exists L. split; [exact HL|].
    rewrite complete_act, (same_complete _ _ _ Same), C by exact HL. reflexivity.
  - destruct (some_complete g (act pi b)) eqn:Sa; [|reflexivity].
    destruct (some_complete_true g _ Sa) as [L [m [HL C]]]. destruct (Fwd L HL) as [L' [HL' Same]].
    rewrite complete_act, (same_complete _ _ _ Same) in C by exact HL.
    rewrite (some_complete_false g _ _ Sb HL') in C. discriminate.
Qed.

Lemma to_move_act : forall b, length b = n -> to_move (act pi b) = to_move b.
Proof. intros b Hb. unfold to_move, placed. rewrite (perm_filter_length _ _ _ _ (act_perm b Hb)). reflexivity. Qed.

Lemma empties_act : forall b, length b = n -> empties (act pi b) = empties b.
Proof. intros b Hb. unfold empties. apply perm_filter_length, act_perm, Hb. Qed.

Lemma result_act : forall b, length b = n -> result g (act pi b) = result g b.
Proof.
  intros b Hb. unfold result, full. rewrite some_complete_act, to_move_act by exact Hb.
  rewrite (perm_forallb _ _ _ _ (act_perm b Hb)).
  destruct first as [G|G]; rewrite G; reflexivity.
Qed.

(** A move and its image. *)
Lemma act_set : forall b k m, length b = n -> k < n ->
  act pi (set_cell (nth k pi 0) m b) = set_cell k m (act pi b).
Proof.
  intros b k m Hb Hk. assert (Yk : nth k pi 0 < length b) by (rewrite Hb; apply Lt, nth_In; lia).
  apply (nth_ext _ _ Empty Empty); [rewrite set_cell_length, !act_length; reflexivity|].
  intros j Hj. rewrite act_length in Hj.
  change (nth j (act pi (set_cell (nth k pi 0) m b)) Empty) with (cell_at (act pi (set_cell (nth k pi 0) m b)) j).
  change (nth j (set_cell k m (act pi b)) Empty) with (cell_at (set_cell k m (act pi b)) j).
  rewrite cell_act, cell_set by (try rewrite act_length; auto).
  rewrite cell_set by (rewrite act_length; exact Hk). rewrite cell_act by exact Hj.
  destruct (Nat.eqb_spec j k) as [->|Ne]; [rewrite Nat.eqb_refl; reflexivity|].
  destruct (Nat.eqb_spec (nth j pi 0) (nth k pi 0)) as [E|_]; [|reflexivity].
  exfalso. apply Ne. apply (proj1 (NoDup_nth pi 0) ND); [lia|lia|exact E].
Qed.

Lemma children_act : forall b c, length b = n -> In c (children g b) -> In (act pi c) (children g (act pi b)).
Proof.
  intros b c Hb Hc. destruct (children_own g own b c Hc) as [R [y [Hy [Ey ->]]]].
  destruct (onto_cells y (ltac:(lia))) as [k [Hk <-]].
  rewrite act_set by auto. rewrite <- (to_move_act b Hb).
  apply children_own_in; [exact own|rewrite result_act; auto|rewrite act_length; exact Hk|].
  rewrite cell_act by exact Hk. exact Ey.
Qed.

Lemma children_back : forall b c', length b = n -> In c' (children g (act pi b)) ->
  exists c, In c (children g b) /\ c' = act pi c.
Proof.
  intros b c' Hb Hc. destruct (children_own g own _ c' Hc) as [R [k [Hk [Ek ->]]]].
  rewrite act_length in Hk. rewrite cell_act in Ek by exact Hk. rewrite (to_move_act b Hb).
  exists (set_cell (nth k pi 0) (mark_of (to_move b)) b). split; [|rewrite act_set; auto].
  apply children_own_in; [exact own|rewrite <- (result_act b Hb); exact R| |exact Ek].
  rewrite Hb. apply Lt, nth_In. lia.
Qed.

(** What the prover forces from a position's image, it forces from the position. *)
Theorem forces_back : forall P ok t, forces board (result g) to_move (children g) P ok t ->
  forall b, length b = n -> t = act pi b -> forces board (result g) to_move (children g) P ok b.
Proof.
  intros P ok t H. induction H as [t o R Ho|t c' R T Hin _ IH|t R T _ IH]; intros b Hb ->.
  - rewrite result_act in R by exact Hb. exact (forces_end _ _ _ _ _ _ _ _ R Ho).
  - rewrite result_act in R by exact Hb. rewrite to_move_act in T by exact Hb.
    destruct (children_back b c' Hb Hin) as [c [Hc ->]].
    apply (forces_choose _ _ _ _ _ _ _ _ R T Hc). apply (IH c); [|reflexivity].
    destruct (children_counts _ _ _ Hc) as [_ [_ L]]. congruence.
  - rewrite result_act in R by exact Hb. rewrite to_move_act in T by exact Hb.
    apply (forces_every _ _ _ _ _ _ _ R T). intros c Hc. apply (IH (act pi c)); [exact (children_act b c Hb Hc)| |reflexivity].
    destruct (children_counts _ _ _ Hc) as [_ [_ L]]. congruence.
Qed.
End Images.

(** What Positional.closed_sound asks of the images, for boards of [n] cells. *)
Theorem image_sound : forall g n syms S b t, image (validate g n syms) S b = Some t -> length b = n ->
  length t = n /\ empties t = empties b /\
  forall P ok, forces board (result g) to_move (children g) P ok t -> forces board (result g) to_move (children g) P ok b.
Proof.
  unfold image, validate. intros g n syms S b t H Hb.
  destruct (find (encode b) (snd S)) as [j|]; [|discriminate].
  destruct (nth_error (map _ syms) j) as [[pi|]|] eqn:E; try discriminate. injection H as <-.
  apply nth_error_In, in_map_iff in E as [pi' [V _]].
  destruct (valid g n pi') eqn:Vd; [|discriminate]. injection V as ->.
  unfold valid in Vd. destruct (marks g) eqn:Own; try discriminate.
  assert (First : goal_of g = FirstLineWins \/ goal_of g = FirstLineLoses)
    by (destruct (goal_of g); auto; discriminate).
  assert (Vd' : (length pi =? n) && forallb (fun i => i <? n) pi && nodupb pi
      && forallb (forallb (fun d => d <? n)) (lines g)
      && forallb (fun L => existsb (same_cells (moved pi L)) (lines g)) (lines g)
      && forallb (fun L' => existsb (fun L => same_cells (moved pi L) L') (lines g)) (lines g) = true)
    by (destruct (goal_of g); try discriminate; exact Vd). clear Vd.
  repeat rewrite andb_true_iff in Vd'. destruct Vd' as [[[[[Ln Ltb] Nd] Lines] Fw] On].
  apply Nat.eqb_eq in Ln.
  assert (Lt : forall i, In i pi -> i < n) by (intros i Hi; apply Nat.ltb_lt, (proj1 (forallb_forall _ _) Ltb i Hi)).
  assert (LL : forall L d, In L (lines g) -> In d L -> d < n)
    by (intros L d HL Hd; apply Nat.ltb_lt, (proj1 (forallb_forall _ _) (proj1 (forallb_forall _ _) Lines L HL) d Hd)).
  assert (F : forall L, In L (lines g) -> exists L', In L' (lines g) /\ same_cells (moved pi L) L' = true)
    by (intros L HL; apply existsb_exists, (proj1 (forallb_forall _ _) Fw L HL)).
  assert (O : forall L', In L' (lines g) -> exists L, In L (lines g) /\ same_cells (moved pi L) L' = true)
    by (intros L' HL'; apply existsb_exists, (proj1 (forallb_forall _ _) On L' HL')).
  pose proof (nodupb_nodup _ Nd) as ND.
  split; [apply (act_length _ _ Ln)|]. split; [eapply empties_act; eauto|].
  intros P ok Ht. eapply forces_back; eauto.
Qed.
