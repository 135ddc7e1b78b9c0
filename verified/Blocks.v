(** Proofs that list only the blocks (proof.replies "blocks", checker/proof.py): under own marks
    where the first line wins, at an opponent's position where the prover has a line to complete
    and the opponent none, only the opponent's moves on the prover's completion cells need be in
    the set. Any other move leaves such a line, which the prover completes next: the opponent
    completed none (it had none to complete), and the board is not full while the line's cell is
    empty. [blocks_sound] proves exactly that, as Checker.v's [replies_sound] asks.

    A line's gap for a mark [m]: the one cell of the line not holding [m], when it is empty (a line
    listing that cell twice too). The check finds the gaps itself, from the rules and the board. *)

From Coq Require Import List Bool Arith Lia.
Import ListNotations.
From Verified Require Import Rules Claims Checker Positional Table Pairing.

Definition gap (b : board) (m : mark) (L : list nat) : option nat :=
  match filter (fun d => negb (mark_eqb (cell_at b d) m)) L with
  | e :: rest =>
      if is_empty (cell_at b e) && (e <? length b) && forallb (Nat.eqb e) rest then Some e else None
  | [] => None
  end.

(** The cells where [m] would complete a line now. *)
Definition gaps (g : game) (b : board) (m : mark) : list nat :=
  flat_map (fun L => match gap b m L with Some e => [e] | None => [] end) (lines g).

(** The reply check at an opponent's position [b] of a proof of player [P]: every reply is a member
    of the set, or (own marks, first line wins) the prover has a gap, the opponent none, and every
    reply on a gap of the prover is a member. *)
Definition blocks (g : game) (P : player) (mem : board -> bool) (b : board) : bool :=
  match marks g, goal_of g with
  | Own, FirstLineWins =>
      let threats := gaps g b (mark_of P) in
      match threats with
      | [] => false
      | _ :: _ =>
          match gaps g b (mark_of (other P)) with
          | [] => forallb (fun e => mem (set_cell e (mark_of (other P)) b)) threats
          | _ :: _ => false
          end
      end
  | _, _ => false
  end.

Definition replies (g : game) (P : player) (no_loss : bool) (mem : board -> bool) (b : board) : bool :=
  forallb mem (children g b) || blocks g P mem b.

(* ---- proofs ---------------------------------------------------------------------------------- *)

Lemma mark_eqb_refl : forall m, mark_eqb m m = true.
Proof. destruct m; reflexivity. Qed.

Lemma gap_spec : forall b m L e, gap b m L = Some e ->
  In e L /\ cell_at b e = Empty /\ e < length b /\ forall d, In d L -> d <> e -> cell_at b d = m.
Proof.
  unfold gap. intros b m L e H.
  destruct (filter (fun d => negb (mark_eqb (cell_at b d) m)) L) as [|e' rest] eqn:F; [discriminate|].
  destruct (is_empty (cell_at b e') && (e' <? length b) && forallb (Nat.eqb e') rest) eqn:C; [|discriminate].
  injection H as <-. apply andb_prop in C as [C All]. apply andb_prop in C as [E Lt].
  assert (Hin : In e' (filter (fun d => negb (mark_eqb (cell_at b d) m)) L)) by (rewrite F; left; reflexivity).
  apply filter_In in Hin as [Hin _].
  split; [exact Hin|]. split; [exact (is_empty_true _ E)|]. split; [apply Nat.ltb_lt; exact Lt|].
  intros d Hd Ne. destruct (mark_eqb (cell_at b d) m) eqn:M; [exact (mark_eqb_eq _ _ M)|].
  assert (Hf : In d (filter (fun d => negb (mark_eqb (cell_at b d) m)) L))
    by (apply filter_In; rewrite M; auto).
  rewrite F in Hf. destruct Hf as [Hf|Hf]; [congruence|].
  exfalso. exact (Ne (eq_sym (proj1 (Nat.eqb_eq _ _) (proj1 (forallb_forall _ _) All d Hf)))).
Qed.

Lemma gap_found : forall b m L y, m <> Empty -> In y L -> cell_at b y = Empty -> y < length b ->
  (forall d, In d L -> d <> y -> cell_at b d = m) -> gap b m L = Some y.
Proof.
  unfold gap. intros b m L y Hm Hy E Lt Off.
  assert (Only : forall d, In d (filter (fun d => negb (mark_eqb (cell_at b d) m)) L) -> d = y).
  { intros d Hd. apply filter_In in Hd as [Hd N]. destruct (Nat.eq_dec d y) as [->|Ne]; [reflexivity|].
    rewrite (Off d Hd Ne), mark_eqb_refl in N. discriminate. }
  assert (Yin : In y (filter (fun d => negb (mark_eqb (cell_at b d) m)) L)).
  { apply filter_In. split; [exact Hy|]. rewrite E. destruct m; [contradiction|reflexivity|reflexivity]. }
  destruct (filter (fun d => negb (mark_eqb (cell_at b d) m)) L) as [|e rest]; [contradiction|].
  rewrite (Only e (or_introl eq_refl)), E. simpl.
  replace (y <? length b) with true by (symmetry; apply Nat.ltb_lt; exact Lt). simpl.
  replace (forallb (Nat.eqb y) rest) with true; [reflexivity|].
  symmetry. apply forallb_forall. intros d Hd. rewrite (Only d (or_intror Hd)). apply Nat.eqb_refl.
Qed.

Lemma gaps_in : forall g b m e, In e (gaps g b m) -> exists L, In L (lines g) /\ gap b m L = Some e.
Proof.
  unfold gaps. intros g b m e H. apply in_flat_map in H as [L [HL He]].
  destruct (gap b m L) as [e'|] eqn:G; [|contradiction]. destruct He as [<-|[]]. exists L. auto.
Qed.

Lemma in_gaps : forall g b m L e, In L (lines g) -> gap b m L = Some e -> In e (gaps g b m).
Proof. unfold gaps. intros g b m L e HL G. apply in_flat_map. exists L. rewrite G. simpl. auto. Qed.

Lemma complete_of : forall b L m, L <> [] -> m <> Empty -> (forall d, In d L -> cell_at b d = m) ->
  complete b L = Some m.
Proof.
  intros b [|c0 rest] m N Hm All; [contradiction|]. simpl.
  rewrite (All c0 (or_introl eq_refl)). destruct m; [contradiction| |];
    (replace (forallb _ rest) with true; [reflexivity|]); symmetry; apply forallb_forall; intros d Hd;
    rewrite (All d (or_intror Hd)); reflexivity.
Qed.

Lemma full_false : forall b e, e < length b -> cell_at b e = Empty -> full b = false.
Proof.
  unfold full, cell_at. intros b e Lt E. destruct (forallb (fun m => negb (is_empty m)) b) eqn:F; [|reflexivity].
  pose proof (proj1 (forallb_forall _ _) F _ (nth_In b Empty Lt)) as H. rewrite E in H. discriminate.
Qed.

Lemma to_move_other : forall p q, p <> q -> p = other q.
Proof. destruct p, q; simpl; congruence. Qed.

Section Blocks.
Variable g : game.
Variable P : player.
Variable own : marks g = Own.
Variable first : goal_of g = FirstLineWins.

Let pm := mark_of P.
Let qm := mark_of (other P).

(** A reply off the prover's gaps, where the opponent has none: the prover completes a line next. *)
Lemma reply_loses : forall b y L e no_loss, result g b = None -> to_move b = other P ->
  gaps g b qm = [] -> In L (lines g) -> gap b pm L = Some e -> y < length b -> cell_at b y = Empty -> y <> e ->
  forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) (set_cell y qm b).
Proof.
  intros b y L e no_loss R T Q HL G Hy Ey Ne.
  destruct (gap_spec _ _ _ _ G) as [Ein [Ee [Elt Off]]].
  pose proof (children_own_in g own b y R Hy Ey) as Hch. rewrite T in Hch. fold qm in Hch.
  assert (Tch : to_move (set_cell y qm b) = P)
    by (rewrite (to_move_child _ _ _ Hch), T; apply other_other).
  assert (Cell : forall d, d <> y -> cell_at (set_cell y qm b) d = cell_at b d).
  { intros d Nd. rewrite cell_set by exact Hy. destruct (Nat.eqb_spec d y); [contradiction|reflexivity]. }
  assert (Rb : some_complete g b = false).
  { unfold result in R. rewrite first in R. destruct (some_complete g b); [discriminate|reflexivity]. }
  assert (Rch : result g (set_cell y qm b) = None).
  { unfold result. rewrite first.
    destruct (some_complete g (set_cell y qm b)) eqn:SC.
    - exfalso. destruct (some_complete_true g _ SC) as [L' [m' [HL' C]]].
      pose proof (new_line g _ _ _ _ _ first R Hy HL' C) as M. subst m'.
      destruct (in_dec Nat.eq_dec y L') as [Yin|Yout].
      + assert (Gq : gap b qm L' = Some y).
        { apply gap_found; [apply not_eq_sym, empty_not_mark|exact Yin|exact Ey|exact Hy|].
          intros d Hd Nd. rewrite <- (Cell d Nd). exact (complete_all _ _ _ C d Hd). }
        pose proof (in_gaps _ _ _ _ _ HL' Gq) as I. rewrite Q in I. exact I.
      + rewrite (complete_same b) in C; [rewrite (some_complete_false _ _ _ Rb HL') in C; discriminate|].
        intros d Hd. apply Cell. intro E'. subst d. contradiction.
    - rewrite (full_false _ e); [reflexivity|rewrite set_cell_length; exact Elt|rewrite Cell by auto; exact Ee]. }
  assert (Elt' : e < length (set_cell y qm b)) by (rewrite set_cell_length; exact Elt).
  assert (Ee' : cell_at (set_cell y qm b) e = Empty) by (rewrite Cell by auto; exact Ee).
  pose proof (children_own_in g own _ e Rch Elt' Ee') as Hwin. rewrite Tch in Hwin. fold pm in Hwin.
  apply (forces_choose _ _ _ _ _ _ _ _ Rch Tch Hwin).
  apply (forces_end _ _ _ _ _ _ _ (Won P)); [|simpl; destruct P; reflexivity].
  unfold result. rewrite first.
  replace (some_complete g (set_cell e pm (set_cell y qm b))) with true.
  - rewrite (to_move_child _ _ _ Hwin), Tch, other_other. reflexivity.
  - symmetry. apply existsb_exists. exists L. split; [exact HL|].
    rewrite (complete_of _ _ pm); [reflexivity|intro N; subst L; contradiction|apply not_eq_sym, empty_not_mark|].
    intros d Hd. rewrite cell_set by exact Elt'. destruct (Nat.eqb_spec d e) as [->|Nd]; [reflexivity|].
    assert (Dm : cell_at b d = pm) by exact (Off d Hd Nd).
    rewrite Cell; [exact Dm|]. intro E'. subst d. rewrite Ey in Dm. exact (empty_not_mark _ Dm).
Qed.
End Blocks.

(** What Checker.v asks of the replies. *)
Theorem replies_sound : forall g P no_loss mem b, replies g P no_loss mem b = true -> result g b = None ->
  to_move b <> P -> forall c, In c (children g b) ->
  mem c = true \/ forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) c.
Proof.
  unfold replies. intros g P no_loss mem b H R T c Hc. apply orb_prop in H as [H|H].
  - left. exact (proj1 (forallb_forall _ _) H c Hc).
  - unfold blocks in H. destruct (marks g) eqn:Mk; try discriminate. destruct (goal_of g) eqn:Gl; try discriminate.
    destruct (gaps g b (mark_of P)) as [|e0 rest] eqn:Th; [discriminate|].
    destruct (gaps g b (mark_of (other P))) eqn:Oq; [|discriminate].
    pose proof (to_move_other _ _ T) as T'.
    destruct (children_own g Mk b c Hc) as [_ [y [Hy [Ey ->]]]]. rewrite T'.
    destruct (in_dec Nat.eq_dec y (e0 :: rest)) as [Yin|Yout].
    + left. exact (proj1 (forallb_forall _ _) H y Yin).
    + right. assert (E0 : In e0 (gaps g b (mark_of P))) by (rewrite Th; left; reflexivity).
      destruct (gaps_in _ _ _ _ E0) as [L [HL G]].
      apply (reply_loses g P Mk Gl b y L e0 no_loss R T' Oq HL G Hy Ey).
      intro E'. subst y. apply Yout. left. reflexivity.
Qed.
