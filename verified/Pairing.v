(** The pairing kind: a pairing check at a position proves that the pairing player [P] does not
    lose from it (checker/pairing.py, docs/certificate-format.md).

    The strategy: [P] plays [first] if given; after that, whenever the opponent takes a cell whose
    partner is empty, [P] takes the partner, and otherwise any legal move. The invariant ([safe]):
    at the opponent's turn every line holds a mark of [P] or both cells of a pair, empty. The
    opponent's move breaks at most the lines through its pair, and [P]'s answer mends them; so the
    opponent never owns a whole line, and under own marks and first-line-wins or most-lines
    cannot win. [pairing_sound] proves it as [does_not_lose], by induction on the empty cells. *)

From Coq Require Import List Bool Arith Lia Wellfounded PArith.
Import ListNotations.
From Verified Require Import Rules Claims Checker Positional Table.

Definition mark_of (p : player) : mark := match p with P1 => Cross | P2 => Nought end.

Fixpoint set_cell (y : nat) (m : mark) (b : board) : board :=
  match y, b with
  | _, [] => []
  | O, _ :: r => m :: r
  | S y', x :: r => x :: set_cell y' m r
  end.

Lemma is_empty_true : forall m, is_empty m = true -> m = Empty.
Proof. destruct m; simpl; congruence. Qed.

Lemma set_cell_length : forall y m b, length (set_cell y m b) = length b.
Proof. induction y; destruct b; simpl; auto. Qed.

Lemma cell_set : forall b y m z, y < length b ->
  cell_at (set_cell y m b) z = if Nat.eqb z y then m else cell_at b z.
Proof.
  unfold cell_at. induction b as [|x b IH]; simpl; intros y m z H; [lia|].
  destruct y as [|y], z as [|z]; simpl; auto.
  apply IH. lia.
Qed.

Lemma fills_own : forall m b c, In c (fills [m] b) ->
  exists y, y < length b /\ cell_at b y = Empty /\ c = set_cell y m b.
Proof.
  unfold cell_at. intros m b. induction b as [|x b IH]; simpl; intros c H; [contradiction|].
  destruct (is_empty x) eqn:E; simpl in H.
  - destruct H as [H|H].
    + exists 0. subst c. simpl. rewrite (is_empty_true _ E). split; [lia|auto].
    + apply in_map_iff in H as [c' [<- Hc]]. destruct (IH _ Hc) as [y [Hy [He ->]]].
      exists (S y). simpl. split; [lia|auto].
  - apply in_map_iff in H as [c' [<- Hc]]. destruct (IH _ Hc) as [y [Hy [He ->]]].
    exists (S y). simpl. split; [lia|auto].
Qed.

Lemma fills_own_in : forall m b y, y < length b -> cell_at b y = Empty -> In (set_cell y m b) (fills [m] b).
Proof.
  unfold cell_at. intros m b. induction b as [|x b IH]; simpl; intros y Hy He; [lia|].
  destruct y as [|y]; simpl in *.
  - subst x. simpl. left. reflexivity.
  - destruct (is_empty x); simpl; [right|]; apply in_map; apply IH; auto; lia.
Qed.

Lemma marks_differ : forall p, mark_of p <> mark_of (other p).
Proof. destruct p; discriminate. Qed.

Lemma empty_not_mark : forall p, Empty <> mark_of p.
Proof. destruct p; discriminate. Qed.

Lemma most_lines_not_lost : forall (p : player) (f : mark -> nat), f (mark_of (other p)) = 0 ->
  (if f Nought <? f Cross then Won P1 else if f Cross <? f Nought then Won P2 else Drawn) <> Won (other p).
Proof.
  intros p f Z. destruct p; simpl in Z; rewrite Z.
  - destruct (0 <? f Cross); [discriminate|]. destruct (f Cross <? 0) eqn:L; [apply Nat.ltb_lt in L; lia|discriminate].
  - destruct (f Nought <? 0) eqn:L; [apply Nat.ltb_lt in L; lia|]. destruct (0 <? f Nought); discriminate.
Qed.

Section Pairing.
Variable g : game.
Variable P : player.
Variable pairs : list (nat * nat).
Variable n : nat.
Variable own : marks g = Own.
Variable goal_ok : goal_of g = FirstLineWins \/ goal_of g = MostLines.
Variable pairs_ok : forall u v, In (u, v) pairs -> u < n /\ v < n /\ u <> v.
Variable disjoint : NoDup (flat_map (fun p => [fst p; snd p]) pairs).

Let pm := mark_of P.
Let qm := mark_of (other P).

Definition has_mark (b : board) (m : mark) (L : list nat) : Prop := exists c, In c L /\ cell_at b c = m.
Definition empty_pair (b : board) (L : list nat) : Prop :=
  exists u v, In (u, v) pairs /\ In u L /\ In v L /\ cell_at b u = Empty /\ cell_at b v = Empty.
Definition safe (b : board) : Prop := forall L, In L (lines g) -> has_mark b pm L \/ empty_pair b L.
Definition no_q_line (b : board) : Prop := forall L, In L (lines g) -> exists c, In c L /\ cell_at b c <> qm.

Lemma children_own : forall b c, In c (children g b) ->
  result g b = None /\ exists y, y < length b /\ cell_at b y = Empty /\ c = set_cell y (mark_of (to_move b)) b.
Proof.
  unfold children. intros b c. destruct (result g b); [simpl; contradiction|].
  unfold placeable. rewrite own. intro H. split; [reflexivity|].
  replace (match to_move b with P1 => Cross | P2 => Nought end) with (mark_of (to_move b)) in H
    by (destruct (to_move b); reflexivity).
  exact (fills_own _ _ _ H).
Qed.

Lemma children_own_in : forall b y, result g b = None -> y < length b -> cell_at b y = Empty ->
  In (set_cell y (mark_of (to_move b)) b) (children g b).
Proof.
  unfold children. intros b y R Hy He. rewrite R. unfold placeable. rewrite own.
  replace (match to_move b with P1 => Cross | P2 => Nought end) with (mark_of (to_move b))
    by (destruct (to_move b); reflexivity).
  exact (fills_own_in _ _ _ Hy He).
Qed.

Lemma complete_all : forall b L m, complete b L = Some m -> forall c, In c L -> cell_at b c = m.
Proof.
  intros b [|c0 rest] m; simpl; [discriminate|].
  destruct (is_empty (cell_at b c0)); [discriminate|].
  destruct (forallb (fun d => mark_eqb (cell_at b d) (cell_at b c0)) rest) eqn:F; [|discriminate].
  intros H. injection H as <-. intros c [<-|Hc]; [reflexivity|].
  apply mark_eqb_eq. exact (proj1 (forallb_forall _ _) F c Hc).
Qed.

Lemma forallb_ext_in' : forall (A : Type) (f h : A -> bool) l, (forall x, In x l -> f x = h x) -> forallb f l = forallb h l.
Proof.
  intros A f h l. induction l as [|x l IH]; simpl; intro H; [reflexivity|].
  rewrite (H x (or_introl eq_refl)), IH; [reflexivity|]. intros y Hy. exact (H y (or_intror Hy)).
Qed.

Lemma complete_same : forall b d L, (forall c, In c L -> cell_at d c = cell_at b c) -> complete d L = complete b L.
Proof.
  intros b d [|c0 rest] H; simpl; [reflexivity|].
  rewrite (H c0 (or_introl eq_refl)).
  replace (forallb (fun x => mark_eqb (cell_at d x) (cell_at b c0)) rest)
    with (forallb (fun x => mark_eqb (cell_at b x) (cell_at b c0)) rest); [reflexivity|].
  apply forallb_ext_in'. intros x Hx. rewrite (H x (or_intror Hx)). reflexivity.
Qed.

Lemma no_q_complete : forall b L, no_q_line b -> In L (lines g) -> complete b L <> Some qm.
Proof.
  intros b L Hn HL Hc. destruct (Hn L HL) as [c [Hin Hne]]. exact (Hne (complete_all _ _ _ Hc c Hin)).
Qed.

Lemma completed_zero : forall b, no_q_line b -> completed_in g b qm = 0.
Proof.
  intros b Hn. unfold completed_in.
  assert (E : filter (fun l => match complete b l with Some m' => mark_eqb m' qm | None => false end) (lines g) = []).
  { assert (All : forall l, In l (lines g) ->
              (match complete b l with Some m' => mark_eqb m' qm | None => false end) = false).
    { intros l Hl. destruct (complete b l) as [m'|] eqn:C; [|reflexivity].
      destruct (mark_eqb m' qm) eqn:M; [|reflexivity].
      apply mark_eqb_eq in M. subst m'. exfalso. exact (no_q_complete _ _ Hn Hl C). }
    induction (lines g) as [|l ls IH]; simpl; [reflexivity|].
    rewrite (All l (or_introl eq_refl)). apply IH. intros l' Hl'. exact (All l' (or_intror Hl')). }
  rewrite E. reflexivity.
Qed.

Lemma some_complete_true : forall b, some_complete g b = true ->
  exists L m, In L (lines g) /\ complete b L = Some m.
Proof.
  unfold some_complete. intros b H. apply existsb_exists in H as [L [HL HC]].
  destruct (complete b L) as [m|] eqn:C; [|discriminate]. exists L, m. auto.
Qed.

Lemma some_complete_false : forall b L, some_complete g b = false -> In L (lines g) -> complete b L = None.
Proof.
  unfold some_complete. intros b L H HL. destruct (complete b L) eqn:C; [|reflexivity].
  assert (existsb (fun l => match complete b l with Some _ => true | None => false end) (lines g) = true)
    by (apply existsb_exists; exists L; rewrite C; auto). congruence.
Qed.

(** After a move by the player with mark [m] at a position where play went on, a complete line
    is made of [m]. *)
Lemma new_line : forall b y m L m', goal_of g = FirstLineWins -> result g b = None -> y < length b ->
  In L (lines g) -> complete (set_cell y m b) L = Some m' -> m' = m.
Proof.
  intros b y m L m' G R Hy HL C.
  assert (F : some_complete g b = false).
  { unfold result in R. rewrite G in R. destruct (some_complete g b); [discriminate|reflexivity]. }
  pose proof (some_complete_false _ _ F HL) as N.
  destruct (in_dec Nat.eq_dec y L) as [Yin|Yout].
  - pose proof (complete_all _ _ _ C y Yin) as E. rewrite cell_set in E by exact Hy.
    rewrite Nat.eqb_refl in E. congruence.
  - exfalso. rewrite complete_same with (b := b) in C; [congruence|].
    intros c Hc. rewrite cell_set by exact Hy. destruct (Nat.eqb_spec c y); [subst; contradiction|reflexivity].
Qed.

Lemma other_other' : forall p, other (other p) = p.
Proof. destruct p; reflexivity. Qed.

(** An end reached by a move is not a loss for [P] when the opponent holds no complete line. *)
Lemma end_ok : forall b d o, In d (children g b) -> no_q_line d -> result g d = Some o -> o <> Won (other P).
Proof.
  intros b d o Hd Hn R. destruct (children_own _ _ Hd) as [Rb [y [Hy [He ->]]]].
  pose proof (to_move_child _ _ _ Hd) as T.
  unfold result in R. destruct goal_ok as [G|G]; rewrite G in R.
  - destruct (some_complete g (set_cell y (mark_of (to_move b)) b)) eqn:S.
    + injection R as <-. rewrite T, other_other'. intro W. injection W as W.
      destruct (some_complete_true _ S) as [L [m [HL C]]].
      pose proof (new_line _ _ _ _ _ G Rb Hy HL C) as M. subst m.
      rewrite W in C, Hn. exact (no_q_complete _ _ Hn HL C).
    + destruct (full _); [injection R as <-; discriminate|discriminate].
  - destruct (full _); [|discriminate]. injection R as <-.
    exact (most_lines_not_lost P (completed_in g _) (completed_zero _ Hn)).
Qed.

Lemma safe_no_q : forall b, safe b -> no_q_line b.
Proof.
  intros b S L HL. destruct (S L HL) as [[c [Hc E]]|[u [v [_ [Hu [_ [Eu _]]]]]]].
  - exists c. split; [exact Hc|]. rewrite E. apply marks_differ.
  - exists u. split; [exact Hu|]. rewrite Eu. apply empty_not_mark.
Qed.

(** [P]'s own move keeps the board safe. *)
Lemma safe_p_move : forall b y, y < length b -> cell_at b y = Empty -> safe b -> safe (set_cell y pm b).
Proof.
  intros b y Hy He S L HL. destruct (S L HL) as [[c [Hc E]]|[u [v [Hp [Hu [Hv [Eu Ev]]]]]]].
  - left. exists c. split; [exact Hc|]. rewrite cell_set by exact Hy.
    destruct (Nat.eqb_spec c y); [reflexivity|exact E].
  - destruct (Nat.eqb_spec u y) as [->|Nu]; [left; exists y; split; [exact Hu|rewrite cell_set, Nat.eqb_refl; auto]|].
    destruct (Nat.eqb_spec v y) as [->|Nv]; [left; exists y; split; [exact Hv|rewrite cell_set, Nat.eqb_refl; auto]|].
    right. exists u, v. repeat split; auto; rewrite cell_set by exact Hy.
    + apply Nat.eqb_neq in Nu. rewrite Nu. exact Eu.
    + apply Nat.eqb_neq in Nv. rewrite Nv. exact Ev.
Qed.

(** The partner of a cell: the other cell of its pair. *)
Fixpoint partner_in (ps : list (nat * nat)) (x : nat) : option nat :=
  match ps with
  | [] => None
  | (u, v) :: rest => if Nat.eqb x u then Some v else if Nat.eqb x v then Some u else partner_in rest x
  end.

Lemma partner_spec : forall ps u v, NoDup (flat_map (fun p => [fst p; snd p]) ps) -> In (u, v) ps ->
  partner_in ps u = Some v /\ partner_in ps v = Some u.
Proof.
  induction ps as [|[a b] rest IH]; simpl; intros u v ND H; [contradiction|].
  inversion ND as [|x l NA ND1]; subst. inversion ND1 as [|y l' NB ND2]; subst.
  destruct H as [E|H].
  - injection E as -> ->. rewrite Nat.eqb_refl. split; [reflexivity|].
    destruct (Nat.eqb_spec v u) as [->|]; [exfalso; apply NA; left; reflexivity|].
    rewrite Nat.eqb_refl. reflexivity.
  - assert (Iu : In u (flat_map (fun p => [fst p; snd p]) rest))
      by (apply in_flat_map; exists (u, v); simpl; auto).
    assert (Iv : In v (flat_map (fun p => [fst p; snd p]) rest))
      by (apply in_flat_map; exists (u, v); simpl; auto).
    destruct (Nat.eqb_spec u a) as [->|]; [exfalso; apply NA; right; exact Iu|].
    destruct (Nat.eqb_spec u b) as [->|]; [exfalso; apply NB; exact Iu|].
    destruct (Nat.eqb_spec v a) as [->|]; [exfalso; apply NA; right; exact Iv|].
    destruct (Nat.eqb_spec v b) as [->|]; [exfalso; apply NB; exact Iv|].
    exact (IH _ _ ND2 H).
Qed.

(** After the opponent's move at [x] on a safe board, [P] has a move back to a safe board:
    [x]'s partner if it is free, else any. *)
Lemma answer : forall b x c, length b = n -> safe b -> x < length b -> cell_at b x = Empty ->
  c = set_cell x qm b -> result g c = None -> to_move c = P ->
  exists d, In d (children g c) /\ safe d.
Proof.
  intros b x c Ln S Hx He -> R T.
  assert (Lc : length (set_cell x qm b) = n) by (rewrite set_cell_length; exact Ln).
  assert (Cc : forall z, cell_at (set_cell x qm b) z = if Nat.eqb z x then qm else cell_at b z)
    by (intro z; apply cell_set; exact Hx).
  (* the board after P's move at w is safe when w answers every pair x belongs to *)
  assert (Good : forall w, w < n -> cell_at (set_cell x qm b) w = Empty ->
            (forall u v, In (u, v) pairs -> cell_at b u = Empty -> cell_at b v = Empty ->
                         (x = u -> w = v) /\ (x = v -> w = u)) ->
            safe (set_cell w pm (set_cell x qm b))).
  { intros w Hw Ew Ans L HL. rewrite <- Lc in Hw.
    assert (Cd : forall z, cell_at (set_cell w pm (set_cell x qm b)) z =
                 if Nat.eqb z w then pm else if Nat.eqb z x then qm else cell_at b z)
      by (intro z; rewrite cell_set by exact Hw; rewrite Cc; reflexivity).
    destruct (S L HL) as [[c [Hc E]]|[u [v [Hp [Hu [Hv [Eu Ev]]]]]]].
    - left. exists c. split; [exact Hc|]. rewrite Cd. destruct (Nat.eqb_spec c w); [reflexivity|].
      destruct (Nat.eqb_spec c x) as [->|]; [|exact E].
      exfalso. rewrite He in E. exact (empty_not_mark P E).
    - destruct (Ans u v Hp Eu Ev) as [A1 A2].
      destruct (Nat.eqb_spec x u) as [Xu|Xu]; [left; exists w; split; [rewrite (A1 Xu); exact Hv|rewrite Cd, Nat.eqb_refl; reflexivity]|].
      destruct (Nat.eqb_spec x v) as [Xv|Xv]; [left; exists w; split; [rewrite (A2 Xv); exact Hu|rewrite Cd, Nat.eqb_refl; reflexivity]|].
      destruct (Nat.eqb_spec u w) as [->|Uw]; [left; exists w; split; [exact Hu|rewrite Cd, Nat.eqb_refl; reflexivity]|].
      destruct (Nat.eqb_spec v w) as [->|Vw]; [left; exists w; split; [exact Hv|rewrite Cd, Nat.eqb_refl; reflexivity]|].
      right. exists u, v. repeat split; auto; rewrite Cd.
      + apply Nat.eqb_neq in Uw. rewrite Uw. destruct (Nat.eqb_spec u x); [congruence|exact Eu].
      + apply Nat.eqb_neq in Vw. rewrite Vw. destruct (Nat.eqb_spec v x); [congruence|exact Ev]. }
  assert (Any : (forall u v, In (u, v) pairs -> cell_at b u = Empty -> cell_at b v = Empty -> x <> u /\ x <> v) ->
             exists d, In d (children g (set_cell x qm b)) /\ safe d).
  { intro Nx. destruct (children g (set_cell x qm b)) as [|d0 rest] eqn:Ch;
      [exfalso; exact (play_goes_on g _ R Ch)|].
    assert (H0 : In d0 (children g (set_cell x qm b))) by (rewrite Ch; left; reflexivity).
    exists d0. split; [left; reflexivity|].
    destruct (children_own _ _ H0) as [_ [y [Hy [Ey ->]]]].
    rewrite T. apply Good; [rewrite Lc in Hy; exact Hy|exact Ey|].
    intros u v Hp Eu Ev. destruct (Nx u v Hp Eu Ev) as [N1 N2]. split; intro; contradiction. }
  assert (Other : forall v, v <> x -> cell_at (set_cell x qm b) v = cell_at b v)
    by (intros v Nv; rewrite Cc; apply Nat.eqb_neq in Nv; rewrite Nv; reflexivity).
  destruct (partner_in pairs x) as [w|] eqn:Pw.
  - assert (Fail : ~ (w < n /\ cell_at (set_cell x qm b) w = Empty) ->
                   exists d, In d (children g (set_cell x qm b)) /\ safe d).
    { intro NW. apply Any. intros u v Hp Eu Ev. destruct (partner_spec _ _ _ disjoint Hp) as [Pu Pv].
      destruct (pairs_ok u v Hp) as [Un [Vn UV]].
      split; intro X; subst x.
      - rewrite Pu in Pw. injection Pw as <-. apply NW. split; [exact Vn|]. rewrite Other; [exact Ev|auto].
      - rewrite Pv in Pw. injection Pw as <-. apply NW. split; [exact Un|]. rewrite Other; [exact Eu|auto]. }
    destruct (lt_dec w n) as [Wn|Wn]; [|apply Fail; intros [A _]; contradiction].
    destruct (cell_at (set_cell x qm b) w) eqn:Ew; [|apply Fail; intros [_ A]; discriminate..].
    exists (set_cell w pm (set_cell x qm b)). split.
    + unfold pm. rewrite <- T. apply children_own_in; [exact R|rewrite Lc; exact Wn|exact Ew].
    + apply (Good w Wn Ew). intros u v Hp _ _. destruct (partner_spec _ _ _ disjoint Hp) as [Pu Pv].
      split; intros ->; congruence.
  - apply Any. intros u v Hp _ _. destruct (partner_spec _ _ _ disjoint Hp) as [Pu Pv].
    split; intros ->; congruence.
Qed.

Lemma q_move_no_q : forall b x, x < length b -> cell_at b x = Empty -> safe b -> no_q_line (set_cell x qm b).
Proof.
  intros b x Hx He S L HL. destruct (S L HL) as [[c [Hc E]]|[u [v [Hp [Hu [Hv [Eu Ev]]]]]]].
  - exists c. split; [exact Hc|]. rewrite cell_set by exact Hx.
    destruct (Nat.eqb_spec c x) as [->|]; [rewrite He in E; exfalso; exact (empty_not_mark P E)|].
    rewrite E. apply marks_differ.
  - destruct (pairs_ok u v Hp) as [_ [_ UV]].
    destruct (Nat.eqb_spec u x) as [->|Ux].
    + exists v. split; [exact Hv|]. rewrite cell_set by exact Hx.
      destruct (Nat.eqb_spec v x); [congruence|]. rewrite Ev. apply empty_not_mark.
    + exists u. split; [exact Hu|]. rewrite cell_set by exact Hx.
      apply Nat.eqb_neq in Ux. rewrite Ux, Eu. apply empty_not_mark.
Qed.

Lemma not_p_other : forall p q, player_eqb p q = false -> p = other q.
Proof. destruct p, q; simpl; congruence. Qed.

(** The theorem: from a safe position where play goes on, [P] does not lose. *)
Theorem pairing_sound : forall b, length b = n -> safe b -> result g b = None -> does_not_lose g P b.
Proof.
  apply (well_founded_induction (wf_inverse_image _ nat _ empties lt_wf)
           (fun b => length b = n -> safe b -> result g b = None -> does_not_lose g P b)).
  intros b IH Ln S R.
  destruct (player_eqb (to_move b) P) eqn:T.
  - apply player_eqb_eq in T.
    destruct (children g b) as [|d rest] eqn:Ch; [exfalso; exact (play_goes_on g b R Ch)|].
    assert (Hd : In d (children g b)) by (rewrite Ch; left; reflexivity).
    destruct (children_own _ _ Hd) as [_ [y [Hy [Ey Ed]]]].
    assert (Sd : safe d) by (rewrite Ed, T; exact (safe_p_move _ _ Hy Ey S)).
    apply (forces_choose _ _ _ _ _ _ _ d R T Hd).
    destruct (result g d) as [o|] eqn:Rd.
    + exact (forces_end _ _ _ _ _ _ _ _ Rd (end_ok _ _ _ Hd (safe_no_q _ Sd) Rd)).
    + apply (IH d (children_empties _ _ _ Hd)); [rewrite Ed, set_cell_length; exact Ln|exact Sd|exact Rd].
  - apply not_p_other in T.
    apply forces_every; [exact R|rewrite T; intro E; exact (marks_differ P (f_equal mark_of (eq_sym E)))|].
    intros c Hc. destruct (children_own _ _ Hc) as [_ [x [Hx [Ex Ec]]]].
    rewrite T in Ec. fold qm in Ec.
    assert (Nc : no_q_line c) by (rewrite Ec; exact (q_move_no_q _ _ Hx Ex S)).
    destruct (result g c) as [o|] eqn:Rc.
    + exact (forces_end _ _ _ _ _ _ _ _ Rc (end_ok _ _ _ Hc Nc Rc)).
    + assert (Tc : to_move c = P) by (rewrite (to_move_child _ _ _ Hc), T; apply other_other').
      destruct (answer b x c Ln S Hx Ex Ec Rc Tc) as [d [Hd Sd]].
      apply (forces_choose _ _ _ _ _ _ _ d Rc Tc Hd).
      destruct (result g d) as [o|] eqn:Rd.
      * exact (forces_end _ _ _ _ _ _ _ _ Rd (end_ok _ _ _ Hd (safe_no_q _ Sd) Rd)).
      * apply (IH d); [pose proof (children_empties _ _ _ Hd); pose proof (children_empties _ _ _ Hc); lia| | |exact Rd].
        -- destruct (children_own _ _ Hd) as [_ [y [_ [_ ->]]]]. rewrite set_cell_length, Ec, set_cell_length. exact Ln.
        -- exact Sd.
Qed.

End Pairing.

(** The check, as checker/pairing.py states it: own marks and a goal where the opponent completing
    no line means [P] does not lose; play goes on at the root; the pairs are disjoint, each of two
    distinct cells on the board; [first], if given, an empty cell with [P] to move; and at the
    board after [first], every line holds a mark of [P] or both cells of a pair, empty. *)
Definition cell_is (b : board) (m : mark) (c : nat) : bool := mark_eqb (cell_at b c) m.

Definition safe_b (g : game) (P : player) (pairs : list (nat * nat)) (b : board) : bool :=
  forallb (fun L => existsb (cell_is b (mark_of P)) L
                    || existsb (fun p => existsb (Nat.eqb (fst p)) L && existsb (Nat.eqb (snd p)) L
                                         && cell_is b Empty (fst p) && cell_is b Empty (snd p)) pairs)
          (lines g).

Fixpoint nodupb (l : list nat) : bool :=
  match l with [] => true | x :: r => negb (existsb (Nat.eqb x) r) && nodupb r end.

Definition pairs_okb (n : nat) (pairs : list (nat * nat)) : bool :=
  forallb (fun p => (fst p <? n) && (snd p <? n) && negb (Nat.eqb (fst p) (snd p))) pairs.

Definition rules_okb (g : game) : bool :=
  match marks g, goal_of g with
  | Own, FirstLineWins | Own, MostLines => true
  | _, _ => false
  end.

Definition pairing_check (g : game) (P : player) (first : option nat) (pairs : list (nat * nat))
  (root : board) : bool :=
  rules_okb g && pairs_okb (length root) pairs && nodupb (flat_map (fun p => [fst p; snd p]) pairs)
  && match result g root with
     | Some _ => false
     | None =>
         match first with
         | None => safe_b g P pairs root
         | Some f => player_eqb (to_move root) P && (f <? length root) && cell_is root Empty f
                     && safe_b g P pairs (set_cell f (mark_of P) root)
         end
     end.

Lemma existsb_nat : forall x L, existsb (Nat.eqb x) L = true -> In x L.
Proof.
  intros x L H. apply existsb_exists in H as [y [Hy E]]. apply Nat.eqb_eq in E. subst. exact Hy.
Qed.

Lemma safe_b_safe : forall g P pairs b, safe_b g P pairs b = true -> safe g P pairs b.
Proof.
  unfold safe_b, safe. intros g P pairs b H L HL.
  pose proof (proj1 (forallb_forall _ _) H L HL) as HL'. apply orb_prop in HL' as [A|A].
  - left. apply existsb_exists in A as [c [Hc E]]. exists c. split; [exact Hc|exact (mark_eqb_eq _ _ E)].
  - right. apply existsb_exists in A as [[u v] [Hp E]]. simpl in E.
    apply andb_prop in E as [E Ev]. apply andb_prop in E as [E Eu]. apply andb_prop in E as [Iu Iv].
    exists u, v. repeat split; auto using existsb_nat, mark_eqb_eq.
Qed.

Lemma nodupb_nodup : forall l, nodupb l = true -> NoDup l.
Proof.
  induction l as [|x l IH]; simpl; intro H; [constructor|].
  apply andb_prop in H as [N H]. constructor; [|exact (IH H)].
  intro Hin. assert (existsb (Nat.eqb x) l = true) by (apply existsb_exists; exists x; rewrite Nat.eqb_refl; auto).
  rewrite H0 in N. discriminate.
Qed.

(** The theorem of the pairing kind: a pairing the check accepts proves that [P] does not lose. *)
Theorem pairing_check_sound : forall g P first pairs root,
  pairing_check g P first pairs root = true -> does_not_lose g P root.
Proof.
  unfold pairing_check. intros g P first pairs root H.
  apply andb_prop in H as [H M]. apply andb_prop in H as [H D]. apply andb_prop in H as [Rk Pk].
  assert (own : marks g = Own) by (unfold rules_okb in Rk; destruct (marks g), (goal_of g); congruence).
  assert (goal_ok : goal_of g = FirstLineWins \/ goal_of g = MostLines)
    by (unfold rules_okb in Rk; destruct (marks g), (goal_of g); auto; discriminate).
  assert (pairs_ok : forall u v, In (u, v) pairs -> u < length root /\ v < length root /\ u <> v).
  { intros u v Hp. pose proof (proj1 (forallb_forall _ _) Pk _ Hp) as E. simpl in E.
    apply andb_prop in E as [E N]. apply andb_prop in E as [U V].
    apply Nat.ltb_lt in U, V. repeat split; auto. intro X. subst. rewrite Nat.eqb_refl in N. discriminate. }
  pose proof (nodupb_nodup _ D) as ND.
  destruct (result g root) as [o|] eqn:R; [discriminate|].
  destruct first as [f|].
  - apply andb_prop in M as [M S]. apply andb_prop in M as [M E]. apply andb_prop in M as [T F].
    apply player_eqb_eq in T. apply Nat.ltb_lt in F. apply mark_eqb_eq in E.
    assert (Hd : In (set_cell f (mark_of P) root) (children g root))
      by (rewrite <- T; apply (children_own_in g own); auto).
    apply (forces_choose _ _ _ _ _ _ _ _ R T Hd).
    pose proof (safe_b_safe _ _ _ _ S) as Sd.
    destruct (result g (set_cell f (mark_of P) root)) as [o|] eqn:Rd.
    + apply (forces_end _ _ _ _ _ _ _ _ Rd). eapply end_ok; [exact own|exact goal_ok|exact Hd| |exact Rd].
      eapply safe_no_q. exact Sd.
    + exact (pairing_sound g P pairs (length root) own goal_ok pairs_ok ND _ (set_cell_length _ _ _) Sd Rd).
  - exact (pairing_sound g P pairs (length root) own goal_ok pairs_ok ND _ eq_refl (safe_b_safe _ _ _ _ M) R).
Qed.

(** Proof trees of the positional family whose leaves may be pairings (proof.closures): the
    closure check of Positional.v with a pairing as a closure. [closure] gives a position's pairing
    (first move, pairs), if it has one: any function at all -- the driver's, read from the file --
    since a closure counts only when [pairing_check] accepts it, and only in a no-loss claim. *)
Definition pairing_leaf (g : game) (closure : board -> option (option nat * list (nat * nat)))
  (P : player) (no_loss : bool) (b : board) : bool :=
  match closure b with
  | Some (first, pairs) => no_loss && pairing_check g P first pairs b
  | None => false
  end.

Lemma pairing_leaf_sound : forall g closure P no_loss b, pairing_leaf g closure P no_loss b = true ->
  forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) b.
Proof.
  unfold pairing_leaf. intros g closure P no_loss b H.
  destruct (closure b) as [[first pairs]|]; [|discriminate].
  apply andb_prop in H as [N H]. subst no_loss.
  eapply forces_weaken; [|exact (pairing_check_sound _ _ _ _ _ H)].
  intros [q|] Hq; simpl; [|reflexivity]. apply player_eqb_eq.
  destruct q, P; simpl in *; congruence.
Qed.
