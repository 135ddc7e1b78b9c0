(** The count closure of Ultimate tic-tac-toe (issue 36; docs/certificate-format.md, "Closing a
    branch by a count"; checker/uttt_count.py [check_count]), under both rule sets, and its theorem: a
    closure the check accepts proves that the prover is not beaten within the plies left -- the
    opponent cannot complete a meta line before the bound (or, without a bound, ever).

    The opponent's count of a position: a board counts 0 if the opponent owns it; 255 if the prover
    owns it or it is full; else 3 minus the opponent's marks on its fullest local line holding no
    prover's mark (255 if every line holds one). A meta line counts the sum of its three boards, the
    position the least over the 8 meta lines and 255. The argument: owners never change once set
    and a board becomes the opponent's only by a line of its marks, so the prover's moves never
    lower any board's count, and an opponent's move lowers only the board it plays, by one at most
    ([step_prover], [step_opponent]); the opponent owning a meta line has count 0 ([won_needed]). *)

From Coq Require Import List Bool Arith Lia PArith.
Import ListNotations.
From Verified Require Import Rules Claims Checker Uttt.

Definition sum {A : Type} (f : A -> nat) (l : list A) : nat := fold_right (fun x n => f x + n) 0 l.
(** [Nat.min] ([smaller_min]) by a comparison: the extracted [Nat.min] builds its unary result,
    255 cells for two blocked lines, where [Nat.leb] allocates nothing. *)
Definition smaller (a b : nat) : nat := if a <=? b then a else b.
Definition least {A : Type} (f : A -> nat) (l : list A) : nat := fold_right (fun x n => smaller (f x) n) 255 l.

Definition holds (b : list mark) (m : mark) (c : nat) : bool := mark_eqb (nth c b Empty) m.

(** A local line's count for the mark [q] against [p]: 255 if it holds a [p], else 3 minus its [q]s. *)
Definition line_cost (q p : mark) (b : list mark) (l : list nat) : nat :=
  if existsb (holds b p) l then 255 else 3 - length (filter (holds b q) l).

(** A board's count for [q] against [p], its owner being [o]. *)
Definition board_cost (q p o : mark) (b : list mark) : nat :=
  if mark_eqb o q then 0
  else if is_empty o && has_empty b then least (line_cost q p b) lines3 else 255.

(** One lower, unless 255 (never). *)
Definition lower (x : nat) : nat := if x <? 255 then pred x else x.

(** The count of board [i] for the opponent of [P], taken one lower if it is the board [lowered]. *)
Definition cost (P : player) (s : state) (lowered : option nat) (i : nat) : nat :=
  let c := board_cost (mark_of (other P)) (mark_of P) (nth i (owners s) Empty) (board s i) in
  match lowered with Some j => if i =? j then lower c else c | None => c end.

(** The fewest marks the opponent of [P] needs for a meta line (255: none is left to it). *)
Definition needed (P : player) (s : state) (lowered : option nat) : nat :=
  least (sum (cost P s lowered)) lines3.

(** The same count, each board's counted once (9 boards, where [needed] counts one 24 times over
    the meta lines): what the checks compute; [counted_needed] proves it equal to [needed]. *)
Definition counted (P : player) (s : state) (lowered : option nat) : nat :=
  let costs := map (cost P s lowered) boards in
  least (sum (fun i => nth i costs 0)) lines3.

(** X has as many marks as O, or one more: then the sides alternate. *)
Definition balanced (s : state) : bool :=
  let x := count Cross s in let o := count Nought s in (x =? o) || (x =? S o).

(** [balanced s && player_eqb (to_move s) P] ([turn_ok_spec]), each mark counted once. *)
Definition turn_ok (s : state) (P : player) : bool :=
  let x := count Cross s in let o := count Nought s in
  ((x =? o) || (x =? S o)) && player_eqb (if x =? o then P1 else P2) P.

Lemma turn_ok_spec : forall s P, turn_ok s P = balanced s && player_eqb (to_move s) P.
Proof. reflexivity. Qed.

(** The check of one closure: at [s], [P] to move, play going on, [n] plies left; [move] and
    [record] are the closure's two bytes ([None]: 255, no move). As checker/uttt_count.py [check_count]:
    without a move, the count must be the record and exceed the opponent's moves left,
    ⌊min(n, empty cells) / 2⌋; with one, [P]'s move must send the opponent to a board with play
    going on, and the count with that board one lower must be the record and exceed
    ⌈min(n - 1, empty cells) / 2⌉ - 1. *)
Definition count_ok (R : ruleset) (P : player) (n : nat) (s : state) (move : option nat) (record : nat) : bool :=
  turn_ok s P &&
  match result R s with
  | Some _ => false
  | None =>
      match move with
      | None => let c := counted P s None in (record =? c) && (Nat.min n (empties s) / 2 <? c)
      | Some i =>
          match child R s i with
          | Some a =>
              match result R a, sent a with
              | None, Some j => let c := counted P a (Some j) in
                                (record =? c) && ((Nat.min (n - 1) (empties a) + 1) / 2 <? S c)
              | _, _ => false
              end
          | None => false
          end
      end
  end.

(* ---- proofs ---------------------------------------------------------------------------------- *)

Lemma smaller_min : forall a b, smaller a b = Nat.min a b.
Proof. intros a b. unfold smaller. destruct (Nat.leb_spec a b); lia. Qed.

Lemma least_cons : forall (A : Type) (f : A -> nat) x l, least f (x :: l) = Nat.min (f x) (least f l).
Proof. intros A f x l. apply smaller_min. Qed.

Lemma least_le_255 : forall (A : Type) (f : A -> nat) l, least f l <= 255.
Proof. intros A f l. induction l; [simpl; lia|rewrite least_cons; lia]. Qed.

Lemma least_mono : forall (A : Type) (f g : A -> nat) l, (forall x, In x l -> f x <= g x) -> least f l <= least g l.
Proof.
  intros A f g l. induction l as [|x l IH]; intro H; [simpl; lia|rewrite !least_cons].
  specialize (H x (or_introl eq_refl)) as Hx. specialize (IH (fun y Hy => H y (or_intror Hy))). lia.
Qed.

Lemma least_le : forall (A : Type) (f : A -> nat) l x, In x l -> least f l <= f x.
Proof.
  intros A f l x. induction l as [|y l IH]; [contradiction|rewrite least_cons]. intros [->|H]; [lia|].
  specialize (IH H). lia.
Qed.

Lemma lower_min : forall a b, lower (Nat.min a b) = Nat.min (lower a) (lower b).
Proof.
  intros a b. unfold lower.
  destruct (Nat.min a b <? 255) eqn:E1, (a <? 255) eqn:E2, (b <? 255) eqn:E3;
    rewrite ?Nat.ltb_lt, ?Nat.ltb_ge in *; lia.
Qed.

Lemma lower_le : forall x, lower x <= x.
Proof. intro x. unfold lower. destruct (x <? 255); lia. Qed.

Lemma lower_0 : lower 0 = 0.
Proof. reflexivity. Qed.

Lemma lower_255 : lower 255 = 255.
Proof. reflexivity. Qed.

Lemma least_lower : forall (A : Type) (f g : A -> nat) l,
  (forall x, In x l -> lower (f x) <= g x) -> lower (least f l) <= least g l.
Proof.
  intros A f g l. induction l as [|x l IH]; intro H; [unfold lower; simpl; lia|rewrite !least_cons].
  rewrite lower_min. specialize (H x (or_introl eq_refl)) as Hx. specialize (IH (fun y Hy => H y (or_intror Hy))). lia.
Qed.

Lemma least_plus1 : forall (A : Type) (f g : A -> nat) l,
  (forall x, In x l -> f x <= g x + 1) -> least f l <= least g l + 1.
Proof.
  intros A f g l. induction l as [|x l IH]; intro H; [simpl; lia|rewrite !least_cons].
  specialize (H x (or_introl eq_refl)) as Hx. specialize (IH (fun y Hy => H y (or_intror Hy))). lia.
Qed.

Lemma sum_mono : forall (A : Type) (f g : A -> nat) l, (forall x, In x l -> f x <= g x) -> sum f l <= sum g l.
Proof.
  intros A f g l. induction l as [|x l IH]; simpl; intro H; [lia|].
  specialize (H x (or_introl eq_refl)) as Hx. specialize (IH (fun y Hy => H y (or_intror Hy))). lia.
Qed.

Lemma filter_all : forall (A : Type) (f : A -> bool) l, (forall x, In x l -> f x = true) -> filter f l = l.
Proof.
  intros A f l. induction l as [|x l IH]; simpl; intro H; [reflexivity|].
  rewrite (H x (or_introl eq_refl)), IH by (intros y Hy; exact (H y (or_intror Hy))). reflexivity.
Qed.

Lemma lines3_shape : forall l, In l lines3 -> NoDup l /\ length l = 3.
Proof.
  intros l H. repeat (destruct H as [<-|H]; [split; [repeat constructor; simpl; intuition lia|reflexivity]|]).
  contradiction.
Qed.

Lemma nth_replace : forall (A : Type) i j (x d : A) l, j < length l ->
  nth i (replace j x l) d = if i =? j then x else nth i l d.
Proof.
  intros A i j x d l L. destruct (Nat.eqb_spec i j) as [->|N].
  - apply nth_replace_same. exact L.
  - apply nth_replace_other. exact N.
Qed.

Lemma holds_replace : forall b k m x c, k < length b ->
  holds (replace k m b) x c = if c =? k then mark_eqb m x else holds b x c.
Proof. intros b k m x c L. unfold holds. rewrite nth_replace by exact L. destruct (c =? k); reflexivity. Qed.

Lemma mark_eqb_refl : forall m, mark_eqb m m = true.
Proof. destruct m; reflexivity. Qed.

Lemma filter_same : forall b k m x l, k < length b -> ~ In k l ->
  filter (holds (replace k m b) x) l = filter (holds b x) l.
Proof.
  intros b k m x l L. induction l as [|c l IH]; simpl; intro N; [reflexivity|].
  rewrite holds_replace by exact L. destruct (Nat.eqb_spec c k) as [->|_]; [destruct N; left; reflexivity|].
  rewrite IH by (intro; apply N; right; assumption). reflexivity.
Qed.

Lemma filter_up : forall b k m x l, k < length b -> nth k b Empty = Empty -> NoDup l ->
  length (filter (holds (replace k m b) x) l) <= length (filter (holds b x) l) + 1.
Proof.
  intros b k m x l L E. induction l as [|c l IH]; simpl; intro ND; [lia|].
  inversion ND as [|? ? Nc ND']. subst. rewrite holds_replace by exact L.
  destruct (Nat.eqb_spec c k) as [->|_].
  - rewrite filter_same by assumption. destruct (mark_eqb m x), (holds b x k); simpl; lia.
  - specialize (IH ND'). destruct (holds b x c); simpl; lia.
Qed.

Lemma filter_down : forall b k m x l, k < length b -> nth k b Empty = Empty -> is_empty x = false ->
  length (filter (holds b x) l) <= length (filter (holds (replace k m b) x) l).
Proof.
  intros b k m x l L E X. induction l as [|c l IH]; simpl; [lia|].
  rewrite holds_replace by exact L. destruct (Nat.eqb_spec c k) as [->|_].
  - unfold holds at 1. rewrite E. destruct x; try discriminate; simpl; destruct (mark_eqb m _); simpl; lia.
  - destruct (holds b x c); simpl; lia.
Qed.

Lemma existsb_replace : forall b k m x l, k < length b -> nth k b Empty = Empty -> mark_eqb m x = false ->
  is_empty x = false -> existsb (holds (replace k m b) x) l = existsb (holds b x) l.
Proof.
  intros b k m x l L E M X. induction l as [|c l IH]; simpl; [reflexivity|].
  rewrite holds_replace by exact L. rewrite IH. destruct (Nat.eqb_spec c k) as [->|_]; [|reflexivity].
  rewrite M. unfold holds. rewrite E. destruct x; try discriminate; reflexivity.
Qed.

Lemma existsb_keep : forall b k m x l, k < length b -> nth k b Empty = Empty -> is_empty x = false ->
  existsb (holds b x) l = true -> existsb (holds (replace k m b) x) l = true.
Proof.
  intros b k m x l L E X H. apply existsb_exists in H as [c [Hc Hh]]. apply existsb_exists. exists c. split; [exact Hc|].
  rewrite holds_replace by exact L. destruct (Nat.eqb_spec c k) as [->|_]; [|exact Hh].
  unfold holds in Hh. rewrite E in Hh. destruct x; discriminate.
Qed.

Section Marks.
Variables q p : mark.
Variable q_mark : is_empty q = false.
Variable p_mark : is_empty p = false.
Variable q_p : mark_eqb q p = false.

Lemma p_q : mark_eqb p q = false.
Proof. destruct p, q; try discriminate; reflexivity. Qed.

Lemma line_cost_le : forall b l, line_cost q p b l <= 255.
Proof. intros b l. unfold line_cost. destruct (existsb _ _); lia. Qed.

Lemma line_prover : forall b k l, k < length b -> nth k b Empty = Empty ->
  line_cost q p b l <= line_cost q p (replace k p b) l.
Proof.
  intros b k l L E. unfold line_cost.
  destruct (existsb (holds b p) l) eqn:H1.
  - rewrite (existsb_keep _ _ _ _ _ L E p_mark H1). lia.
  - destruct (existsb (holds (replace k p b) p) l); [lia|].
    pose proof (filter_down b k p q l L E q_mark). assert (length (filter (holds (replace k p b) q) l) <= length (filter (holds b q) l)).
    { clear H. induction l as [|c l IH]; simpl; [lia|]. rewrite holds_replace by exact L.
      destruct (Nat.eqb_spec c k) as [->|_].
      - rewrite p_q. unfold holds at 2. rewrite E. destruct q; try discriminate; simpl; apply IH; simpl in H1;
          apply orb_false_iff in H1 as [_ H1]; exact H1.
      - simpl in H1. apply orb_false_iff in H1 as [_ H1]. destruct (holds b q c); simpl; specialize (IH H1); lia. }
    lia.
Qed.

Lemma line_opponent : forall b k l, k < length b -> nth k b Empty = Empty -> NoDup l ->
  lower (line_cost q p b l) <= line_cost q p (replace k q b) l.
Proof.
  intros b k l L E ND. unfold line_cost. rewrite (existsb_replace _ _ _ _ _ L E q_p p_mark).
  destruct (existsb (holds b p) l); [unfold lower; simpl; lia|].
  pose proof (filter_up b k q q l L E ND). unfold lower.
  destruct (3 - length (filter (holds b q) l) <? 255) eqn:T; rewrite ?Nat.ltb_lt, ?Nat.ltb_ge in T; lia.
Qed.

Lemma complete_all : forall b l m, complete b l = Some m -> forall c, In c l -> nth c b Empty = m.
Proof.
  intros b [|c0 rest] m; simpl; [discriminate|]. unfold cell_at.
  destruct (is_empty (nth c0 b Empty)); [discriminate|].
  destruct (forallb _ rest) eqn:F; [|discriminate]. intros H. injection H as <-. intros c [<-|Hc]; [reflexivity|].
  apply (proj1 (forallb_forall _ _) F) in Hc. destruct (nth c b Empty), (nth c0 b Empty); try discriminate; reflexivity.
Qed.

Lemma line_won : forall b k l, k < length b -> nth k b Empty = Empty -> NoDup l -> length l = 3 ->
  complete (replace k q b) l = Some q -> line_cost q p b l <= 1.
Proof.
  intros b k l L E ND Len C. pose proof (complete_all _ _ _ C) as All.
  unfold line_cost. replace (existsb (holds b p) l) with false.
  - pose proof (filter_up b k q q l L E ND).
    assert (length (filter (holds (replace k q b) q) l) = 3).
    { rewrite <- Len. f_equal. apply filter_all. intros c Hc. unfold holds. rewrite (All c Hc). apply mark_eqb_refl. }
    lia.
  - symmetry. apply not_true_iff_false. intro H. apply existsb_exists in H as [c [Hc Hh]].
    specialize (All c Hc). rewrite nth_replace in All by exact L. unfold holds in Hh.
    destruct (Nat.eqb_spec c k) as [Hck|_].
    + rewrite Hck, E in Hh. destruct p; discriminate.
    + rewrite All in Hh. rewrite q_p in Hh. discriminate.
Qed.

Lemma first_line_complete : forall b ls m, first_line_in b ls = m -> is_empty m = false ->
  exists l, In l ls /\ complete b l = Some m.
Proof.
  intros b ls m. induction ls as [|l rest IH]; simpl; intros H M; [subst; discriminate|].
  destruct (complete b l) eqn:C; [subst; exists l; split; [left; reflexivity|exact C]|].
  destruct (IH H M) as [l' [Hin Hc]]. exists l'. split; [right; exact Hin|exact Hc].
Qed.

Lemma has_empty_at : forall b k, k < length b -> nth k b Empty = Empty -> has_empty b = true.
Proof.
  intros b k L E. apply existsb_exists. exists Empty. split; [|reflexivity].
  rewrite <- E. apply nth_In. exact L.
Qed.

Lemma board_cost_le : forall o b, board_cost q p o b <= 255.
Proof.
  intros o b. unfold board_cost. destruct (mark_eqb o q); [lia|].
  destruct (is_empty o && has_empty b); [apply least_le_255|lia].
Qed.

Lemma board_prover : forall o o' b k, k < length b -> nth k b Empty = Empty ->
  (o' = o \/ (o = Empty /\ o' = p)) -> board_cost q p o b <= board_cost q p o' (replace k p b).
Proof.
  intros o o' b k L E [->|[-> ->]].
  - unfold board_cost. destruct (mark_eqb o q); [lia|]. rewrite (has_empty_at _ _ L E).
    destruct (is_empty o); cbn [andb mark_eqb is_empty]; [|lia].
    destruct (has_empty (replace k p b)); [|pose proof (least_le_255 _ (line_cost q p b) lines3); lia].
    apply least_mono. intros l _. apply line_prover; assumption.
  - pose proof (board_cost_le Empty b). unfold board_cost at 2. rewrite p_q, p_mark. cbn [andb]. lia.
Qed.

Lemma board_opponent : forall o o' b k, k < length b -> nth k b Empty = Empty ->
  (o' = o \/ (o = Empty /\ o' = q /\ first_line (replace k q b) = q)) ->
  lower (board_cost q p o b) <= board_cost q p o' (replace k q b).
Proof.
  intros o o' b k L E [->|[-> [-> F]]]; unfold board_cost.
  - destruct (mark_eqb o q); [rewrite lower_0; lia|]. rewrite (has_empty_at _ _ L E).
    destruct (is_empty o); cbn [andb]; [|rewrite lower_255; lia].
    destruct (has_empty (replace k q b)).
    + apply least_lower. intros l Hl. apply line_opponent; try assumption. exact (proj1 (lines3_shape _ Hl)).
    + pose proof (least_le_255 _ (line_cost q p b) lines3). pose proof (lower_le (least (line_cost q p b) lines3)). lia.
  - rewrite mark_eqb_refl. replace (mark_eqb Empty q) with false by (destruct q; easy).
    rewrite (has_empty_at _ _ L E). cbn [andb is_empty mark_eqb].
    destruct (first_line_complete _ _ _ F q_mark) as [l [Hl C]].
    destruct (lines3_shape _ Hl) as [ND Len].
    pose proof (line_won _ _ _ L E ND Len C).
    pose proof (least_le _ (line_cost q p b) _ _ Hl). unfold lower.
    destruct (Nat.ltb_spec (least (line_cost q p b) lines3) 255); lia.
Qed.

End Marks.

Lemma other_mark : forall P, is_empty (mark_of P) = false /\ is_empty (mark_of (other P)) = false /\
  mark_eqb (mark_of (other P)) (mark_of P) = false.
Proof. destruct P; repeat split. Qed.

(** The step lemmas: after a move of [P], no board's count is lower; after a move of the opponent
    on board [j], only board [j]'s may be, by one. *)
Lemma step_board : forall R s c, In c (children R s) ->
  exists j, playable R s j = true /\
    (forall P i, to_move s = P -> cost P s None i <= cost P c None i) /\
    (forall P i, to_move s = other P -> cost P s (Some j) i <= cost P c None i).
Proof.
  intros R s c H. destruct (child_shape _ _ _ H) as [_ [j [k [Pl [L [E [Bj [Others [Own _]]]]]]]]].
  exists j. split; [exact Pl|]. split.
  - intros P i T. unfold cost. destruct (Nat.eq_dec i j) as [->|N].
    + rewrite Bj, T in *. destruct (other_mark P) as [Mp [Mq Mqp]].
      apply board_prover; try assumption.
      try (destruct Own as [Own|[O1 [O2 _]]]; [left; exact Own|right; split; [exact O1|exact O2]]).
    + destruct (Others i N) as [B O]. rewrite B, O. lia.
  - intros P i T. unfold cost. destruct (Nat.eq_dec i j) as [->|N].
    + rewrite Nat.eqb_refl. rewrite Bj, T in *. destruct (other_mark P) as [Mp [Mq Mqp]].
      apply board_opponent; try assumption.
    + apply Nat.eqb_neq in N as N'. rewrite N'. destruct (Others i N) as [B O]. rewrite B, O. lia.
Qed.

Lemma needed_mono : forall P s c l l', (forall i, cost P s l i <= cost P c l' i) -> needed P s l <= needed P c l'.
Proof. intros P s c l l' H. apply least_mono. intros x _. apply sum_mono. intros i _. apply H. Qed.

Lemma sum_cons : forall (A : Type) (f : A -> nat) x l, sum f (x :: l) = f x + sum f l.
Proof. reflexivity. Qed.

Lemma cost_some : forall P s j i, cost P s (Some j) i = if i =? j then lower (cost P s None i) else cost P s None i.
Proof. reflexivity. Qed.

Lemma sum_lowered : forall P s j l, NoDup l -> sum (cost P s None) l <= sum (cost P s (Some j)) l + 1.
Proof.
  intros P s j l ND. induction ND as [|x l Nx ND IH]; [simpl; lia|]. rewrite !sum_cons, cost_some.
  destruct (Nat.eqb_spec x j) as [->|N].
  - assert (sum (cost P s None) l = sum (cost P s (Some j)) l) as ->.
    { clear IH ND. induction l as [|y l IHl]; [reflexivity|].
      rewrite !sum_cons, cost_some. destruct (Nat.eqb_spec y j) as [->|_]; [destruct Nx; left; reflexivity|].
      rewrite IHl by (intro; apply Nx; right; assumption). reflexivity. }
    pose proof (lower_le (cost P s None j)). unfold lower in *.
    destruct (Nat.ltb_spec (cost P s None j) 255); lia.
  - lia.
Qed.

Lemma needed_lowered : forall P s j, needed P s None <= needed P s (Some j) + 1.
Proof.
  intros P s j. apply least_plus1. intros l Hl. apply sum_lowered. exact (proj1 (lines3_shape _ Hl)).
Qed.

(** The opponent owning a meta line needs no more marks. *)
Lemma won_needed : forall R P s, result R s = Some (Won (other P)) -> needed P s None = 0.
Proof.
  intros R P s H. unfold result in H.
  assert (F : first_line (owners s) = mark_of (other P)).
  { destruct (first_line (owners s)); [destruct (existsb _ _); discriminate|..];
      injection H as H; destruct P; simpl in *; congruence. }
  destruct (other_mark P) as [_ [Mq _]].
  destruct (first_line_complete _ _ _ F Mq) as [l [Hl C]].
  pose proof (complete_all _ _ _ C) as All.
  assert (sum (cost P s None) l = 0).
  { clear Hl C. induction l as [|x l IH]; simpl; [reflexivity|].
    rewrite IH by (intros y Hy; exact (All y (or_intror Hy))). unfold cost, board_cost.
    rewrite (All x (or_introl eq_refl)), mark_eqb_refl. reflexivity. }
  pose proof (least_le _ (sum (cost P s None)) _ _ Hl). unfold needed. lia.
Qed.

Lemma lines3_cells : forall l i, In l lines3 -> In i l -> i < 9.
Proof. intros l i Hl Hi. repeat (destruct Hl as [<-|Hl]; [simpl in Hi; intuition lia|]). contradiction. Qed.

Lemma least_ext : forall (A : Type) (f g : A -> nat) l, (forall x, In x l -> f x = g x) -> least f l = least g l.
Proof. intros A f g l H. apply Nat.le_antisymm; apply least_mono; intros x Hx; rewrite (H x Hx); lia. Qed.

Lemma sum_ext : forall (A : Type) (f g : A -> nat) l, (forall x, In x l -> f x = g x) -> sum f l = sum g l.
Proof. intros A f g l H. apply Nat.le_antisymm; apply sum_mono; intros x Hx; rewrite (H x Hx); lia. Qed.

Lemma counted_needed : forall P s l, counted P s l = needed P s l.
Proof.
  intros P s l. unfold counted, needed. apply least_ext. intros line Hline. apply sum_ext. intros i Hi.
  pose proof (lines3_cells _ _ Hline Hi) as L. unfold boards.
  rewrite nth_indep with (d' := cost P s l 0) by (rewrite map_length, seq_length; exact L).
  rewrite map_nth, seq_nth by exact L. reflexivity.
Qed.

(** The sides alternate in a balanced state. *)
Definition ind (m x : mark) : nat := if mark_eqb m x then 1 else 0.

Lemma fold_inner : forall m b n,
  fold_left (fun n x => if mark_eqb m x then S n else n) b n = n + sum (ind m) b.
Proof. intros m b. induction b as [|x b IH]; intro n; simpl; [lia|]. rewrite IH. unfold ind. destruct (mark_eqb m x); lia. Qed.

Lemma fold_outer : forall m g n,
  fold_left (fun n b => fold_left (fun n x => if mark_eqb m x then S n else n) b n) g n = n + sum (sum (ind m)) g.
Proof. intros m g. induction g as [|b g IH]; intro n; simpl; [lia|]. rewrite IH, fold_inner. lia. Qed.

Lemma sum_replace : forall (A : Type) (f : A -> nat) j x d l, j < length l ->
  sum f (replace j x l) + f (nth j l d) = sum f l + f x.
Proof.
  intros A f j x d l. revert j. induction l as [|y l IH]; intros j L; [simpl in L; lia|].
  destruct j; simpl; [lia|]. simpl in L. specialize (IH j ltac:(lia)). lia.
Qed.

Lemma count_child : forall R s c m, In c (children R s) -> is_empty m = false ->
  count m c = count m s + ind m (mark_of (to_move s)).
Proof.
  intros R s c m H Hm. destruct (child_shape _ _ _ H) as [_ [j [k [Pl [L [E [Bj [_ [_ [G _]]]]]]]]]].
  unfold count. rewrite !fold_outer. rewrite G.
  assert (Lj : j < length (grid s)).
  { destruct (Nat.lt_ge_cases j (length (grid s))) as [Lt|Ge]; [exact Lt|].
    unfold board in L. rewrite nth_overflow in L by exact Ge. simpl in L. lia. }
  pose proof (sum_replace _ (sum (ind m)) j (board c j) [] (grid s) Lj) as S1.
  rewrite Bj in *. pose proof (sum_replace _ (ind m) k (mark_of (to_move s)) Empty (board s j) L) as S2.
  rewrite E in S2. unfold board in *. replace (ind m Empty) with 0 in S2 by (destruct m; easy). lia.
Qed.

Lemma alternate : forall R s c, In c (children R s) -> balanced s = true ->
  balanced c = true /\ to_move c = other (to_move s).
Proof.
  intros R s c H B. pose proof (count_child _ _ _ Cross H eq_refl) as CX.
  pose proof (count_child _ _ _ Nought H eq_refl) as CO. unfold balanced in *. unfold to_move in *.
  destruct (Nat.eqb_spec (count Cross s) (count Nought s)) as [E|N]; unfold ind in *; simpl in *.
  - rewrite CX, CO. destruct (Nat.eqb_spec (count Cross s + 1) (count Nought s + 0)); [lia|].
    split; [|reflexivity]. apply Nat.eqb_eq. lia.
  - apply Nat.eqb_eq in B. rewrite CX, CO. destruct (Nat.eqb_spec (count Cross s + 0) (count Nought s + 1)); [|lia].
    split; reflexivity.
Qed.

Lemma half_lt : forall m x, m / 2 < x -> m < 2 * x.
Proof.
  intros m x H. pose proof (Nat.div_mod m 2 ltac:(lia)). pose proof (Nat.mod_upper_bound m 2 ltac:(lia)). lia.
Qed.

Lemma half_up_lt : forall m x, (m + 1) / 2 < S x -> m < 2 * x + 1.
Proof.
  intros m x H. pose proof (Nat.div_mod (m + 1) 2 ltac:(lia)). pose proof (Nat.mod_upper_bound (m + 1) 2 ltac:(lia)). lia.
Qed.

Lemma other_neq : forall P, other P <> P.
Proof. destruct P; discriminate. Qed.

Lemma side : forall P s, to_move s = P \/ to_move s = other P.
Proof. intros P s. destruct P, (to_move s); auto. Qed.

(** A count closure as the driver read it from [proof.counts] (checker/uttt_count.py): [Two move
    count], the two bytes of [count_ok] ([None]: 255); or [Deep i k records], bytes (254, i, k)
    then k records: the prover plays its [i]-th move, which must send the opponent to a board where
    it has exactly [k] moves; after each, in order, the next record closes the position two plies
    further on. It is the proof's subtree written out. *)
Inductive count_record : Type :=
  | Two : option nat -> nat -> count_record
  | Deep : nat -> nat -> list count_record -> count_record.

(** Deep records nest at most this deep (checker/uttt_count.py [NEST]). *)
Definition nest_limit : nat := 3.

(** [f] holds pairwise along two lists of one length. *)
Fixpoint all2 {A B : Type} (f : A -> B -> bool) (l : list A) (m : list B) : bool :=
  match l, m with
  | [], [] => true
  | x :: l', y :: m' => f x y && all2 f l' m'
  | _, _ => false
  end.

(** The check of one record at [s], [P] to move, [n] plies left, nested [nest] deep at most (a
    [Deep] record with [nest] = 0 is refused: the recursion is on [nest], so it ends). As
    checker/uttt_count.py [check_count]: the move must send the opponent to a board with play going
    on, the opponent's moves there must be [k], and each record must close its reply with [n - 2]
    plies left. *)
Fixpoint record_ok (R : ruleset) (P : player) (nest n : nat) (s : state) (r : count_record) {struct nest} : bool :=
  match r with
  | Two move c => count_ok R P n s move c
  | Deep i k rs =>
      match nest with
      | O => false
      | S deeper =>
          turn_ok s P &&
          match result R s with
          | Some _ => false
          | None =>
              match child R s i with
              | Some a =>
                  match result R a, sent a with
                  | None, Some _ => let replies := children R a in
                                    (k =? length replies) && all2 (fun c r' => record_ok R P deeper (n - 2) c r') replies rs
                  | _, _ => false
                  end
              | None => false
              end
          end
      end
  end.

Lemma all2_In : forall (A B : Type) (f : A -> B -> bool) l m x, all2 f l m = true -> In x l -> exists y, f x y = true.
Proof.
  intros A B f l. induction l as [|x' l IH]; intros [|y m] x H Hx; simpl in *; try discriminate; [contradiction|].
  apply andb_prop in H as [Hf H]. destruct Hx as [<-|Hx]; [exists y; exact Hf|exact (IH _ _ H Hx)].
Qed.

Section Sound.
Variable R : ruleset.
Variable P : player.

Let fw := forces_within state (result R) to_move (children R) P (fun o => accepts true P o = true) (true = true).

(** The invariant: the opponent needs more marks than it has moves in the plies left (and the
    empty cells), counting whose turn it is. *)
Definition enough (n : nat) (s : state) : Prop :=
  balanced s = true /\
  (to_move s = P -> Nat.min n (empties s) < 2 * needed P s None) /\
  (to_move s = other P -> Nat.min n (empties s) + 1 < 2 * needed P s None).

Lemma end_ok : forall n s o, enough n s -> result R s = Some o -> accepts true P o = true.
Proof.
  intros n s o [_ [HP HQ]] Hr. destruct o as [q|]; [|reflexivity]. simpl.
  destruct (player_eqb q P) eqn:E; [reflexivity|].
  assert (q = other P) by (destruct q, P; simpl in E; try discriminate; reflexivity). subst q.
  rewrite (won_needed _ _ _ Hr) in HP, HQ. destruct (side P s) as [T|T]; [specialize (HP T)|specialize (HQ T)]; lia.
Qed.

Lemma enough_forces : forall n s, enough n s -> fw n s.
Proof.
  intro n. induction n as [|n IH]; intros s Hs; destruct (result R s) as [o|] eqn:Hr;
    try exact (within_end _ _ _ _ _ _ _ _ _ _ Hr (end_ok _ _ _ Hs Hr)).
  - exact (within_cut _ _ _ _ _ _ _ _ Hr eq_refl).
  - destruct Hs as [B [HP HQ]]. destruct (side P s) as [T|T].
    + specialize (HP T). destruct (children R s) as [|c cs] eqn:Ch; [destruct (play_goes_on _ _ Hr Ch)|].
      assert (Hc : In c (children R s)) by (rewrite Ch; left; reflexivity).
      apply (within_choose _ _ _ _ _ _ _ _ _ _ Hr T Hc). apply IH.
      destruct (alternate _ _ _ Hc B) as [Bc Tc]. rewrite T in Tc.
      destruct (step_board _ _ _ Hc) as [j [_ [Up _]]].
      pose proof (needed_mono P s c None None (fun i => Up P i T)). pose proof (children_exact _ _ _ Hc).
      split; [exact Bc|split]; intro T'; [rewrite Tc in T'; destruct (other_neq _ T')|lia].
    + specialize (HQ T). apply within_every; [exact Hr|rewrite T; apply other_neq|]. intros c Hc. apply IH.
      destruct (alternate _ _ _ Hc B) as [Bc Tc]. rewrite T in Tc. replace (other (other P)) with P in Tc by (destruct P; reflexivity).
      destruct (step_board _ _ _ Hc) as [j [_ [_ Down]]].
      pose proof (needed_mono P s c (Some j) None (fun i => Down P i T)). pose proof (needed_lowered P s j).
      pose proof (children_exact _ _ _ Hc).
      split; [exact Bc|split]; intro T'; [lia|rewrite Tc in T'; symmetry in T'; destruct (other_neq _ T')].
Qed.

(** The theorem: an accepted count closure proves that [P] is not beaten within the [n] plies
    left -- the opponent completes no meta line before the bound. *)
Theorem count_ok_sound : forall n s move record, count_ok R P n s move record = true -> fw n s.
Proof.
  intros n s move record H. unfold count_ok in H. rewrite turn_ok_spec in H.
  apply andb_prop in H as [H Rest]. apply andb_prop in H as [B T]. apply player_eqb_eq in T.
  destruct (result R s) as [o|] eqn:Hr; [discriminate|].
  destruct move as [i|].
  - rewrite child_nth in Rest. destruct (nth_error (children R s) i) as [a|] eqn:Na; [|discriminate].
    destruct (result R a) as [oa|] eqn:Ra; [discriminate|]. destruct (sent a) as [j|] eqn:Sa; [|discriminate].
    apply andb_prop in Rest as [_ L]. rewrite counted_needed in L. apply Nat.ltb_lt in L. apply half_up_lt in L.
    destruct n as [|n]; [exact (within_cut _ _ _ _ _ _ _ _ Hr eq_refl)|].
    apply nth_error_In in Na.
    apply (within_choose _ _ _ _ _ _ _ _ _ _ Hr T Na).
    destruct (alternate _ _ _ Na B) as [Ba Ta]. rewrite T in Ta.
    destruct n as [|n]; [exact (within_cut _ _ _ _ _ _ _ _ Ra eq_refl)|].
    apply within_every; [exact Ra|rewrite Ta; apply other_neq|]. intros c Hc. apply enough_forces.
    destruct (alternate _ _ _ Hc Ba) as [Bc Tc]. rewrite Ta in Tc. replace (other (other P)) with P in Tc by (destruct P; reflexivity).
    destruct (step_board _ _ _ Hc) as [j' [Pl [_ Down]]].
    assert (j' = j) as ->.
    { destruct (child_shape _ _ _ Na) as [_ [_ [k [_ [_ [_ [_ [_ [_ [_ Sent]]]]]]]]]].
      unfold playable in Pl. rewrite Sa in Pl. rewrite Sa in Sent.
      destruct (open_board R _ k) eqn:O in Sent; [|discriminate]. injection Sent as Ekj. rewrite <- Ekj in O.
      replace (open_board R a j) with true in Pl by (rewrite <- O; destruct R; reflexivity).
      apply Nat.eqb_eq. exact Pl. }
    pose proof (needed_mono P a c (Some j) None (fun i => Down P i Ta)).
    pose proof (children_exact _ _ _ Hc). replace (S (S n) - 1) with (S n) in L by lia.
    split; [exact Bc|split]; intro T'; [lia|rewrite Tc in T'; symmetry in T'; destruct (other_neq _ T')].
  - apply andb_prop in Rest as [_ L]. rewrite counted_needed in L. apply Nat.ltb_lt in L. apply half_lt in L. apply enough_forces.
    split; [exact B|split]; intro T'; [exact L|rewrite T in T'; symmetry in T'; destruct (other_neq _ T')].
Qed.

(** Deep records: by induction on the nesting, each reply's record proves the claim two plies on
    (by [count_ok_sound] at the innermost), so the record proves it where it stands. *)
Theorem record_ok_sound : forall nest n s r, record_ok R P nest n s r = true -> fw n s.
Proof.
  intro nest. induction nest as [|nest IH]; intros n s r H; destruct r as [move c|i k rs];
    try exact (count_ok_sound _ _ _ _ H); [discriminate|].
  cbn [record_ok] in H. rewrite turn_ok_spec in H.
  apply andb_prop in H as [H Rest]. apply andb_prop in H as [B T]. apply player_eqb_eq in T.
  destruct (result R s) as [o|] eqn:Hr; [discriminate|].
  rewrite child_nth in Rest. destruct (nth_error (children R s) i) as [a|] eqn:Na; [|discriminate].
  destruct (result R a) as [oa|] eqn:Ra; [discriminate|]. destruct (sent a) as [j|]; [|discriminate].
  apply andb_prop in Rest as [_ All]. apply nth_error_In in Na.
  destruct n as [|n]; [exact (within_cut _ _ _ _ _ _ _ _ Hr eq_refl)|].
  apply (within_choose _ _ _ _ _ _ _ _ _ _ Hr T Na).
  destruct (alternate _ _ _ Na B) as [_ Ta]. rewrite T in Ta.
  destruct n as [|n]; [exact (within_cut _ _ _ _ _ _ _ _ Ra eq_refl)|].
  apply within_every; [exact Ra|rewrite Ta; apply other_neq|]. intros ch Hch.
  destruct (all2_In _ _ _ _ _ _ All Hch) as [r' Hr'].
  replace n with (S (S n) - 2) by lia. exact (IH _ _ _ Hr').
Qed.

End Sound.

(** The closures of a proof: [closure] gives a position's record if the driver read one there --
    any function at all, since a closure counts only when [record_ok] accepts it, nested
    [nest_limit] deep at most, and only in a no-loss claim. *)
Definition count_leaf (closure : state -> option count_record) (R : ruleset)
  (P : player) (no_loss : bool) (n : nat) (s : state) : bool :=
  match closure s with
  | Some r => no_loss && record_ok R P nest_limit n s r
  | None => false
  end.

Lemma count_leaf_sound : forall closure R P no_loss n s, count_leaf closure R P no_loss n s = true ->
  forces_within state (result R) to_move (children R) P (fun o => accepts no_loss P o = true) (no_loss = true) n s.
Proof.
  unfold count_leaf. intros closure R P no_loss n s H.
  destruct (closure s) as [r|]; [|discriminate].
  apply andb_prop in H as [N H]. subst no_loss. exact (record_ok_sound _ _ _ _ _ _ H).
Qed.

(** The closure checks of Ultimate tic-tac-toe proofs with count closures: unbounded (a closure's
    plies left are the empty cells: play ends by then) and bounded ([claim.within]). *)
(** Without a bound, a closure's plies left are its empty cells (counted only where there is a
    closure: the check asks every prover's position). *)
Definition count_leaf_unbounded (closure : state -> option count_record) (R : ruleset)
  (P : player) (no_loss : bool) (s : state) : bool :=
  match closure s with
  | Some r => no_loss && record_ok R P nest_limit (empties s) s r
  | None => false
  end.

Definition closed (R : ruleset) (key : state -> positive) closure :=
  Checker.trie_closed state (result R) to_move (children R) key state_eqb (count_leaf_unbounded closure R).

Definition closed_within (R : ruleset) (key : state -> positive) closure :=
  Checker.trie_closed_within state (result R) to_move (children R) key state_eqb empties (count_leaf closure R).

Lemma unbounded_leaf_sound : forall closure R P no_loss s,
  count_leaf_unbounded closure R P no_loss s = true ->
  forces state (result R) to_move (children R) P (fun o => accepts no_loss P o = true) s.
Proof.
  intros closure R P no_loss s H. change (count_leaf closure R P no_loss (empties s) s = true) in H.
  apply (forces_within_forces _ _ _ _ empties P _ (no_loss = true) (children_empties R) (play_goes_on R) (empties s)).
  - exact (count_leaf_sound _ _ _ _ _ _ H).
  - lia.
Qed.

Definition wins_within (R : ruleset) := Claims.wins_within state (result R) to_move (children R).
Definition does_not_lose_within (R : ruleset) := Claims.does_not_lose_within state (result R) to_move (children R).

(** The claims of an Ultimate tic-tac-toe certificate closed by counts: Checker.v's
    [closed_claims] and [closed_within_claims] for this game (a bound [M] past the root's empty
    cells is checked at the empty cells plus one, [N]). *)
Corollary closed_claims : forall R key closure P S root,
  (closed R key closure P false S root = true -> wins R P root) /\
  (closed R key closure P true S root = true -> does_not_lose R P root).
Proof.
  intros R key closure.
  exact (Checker.trie_closed_claims _ _ _ _ _ _ _ state_eqb_eq _ (children_empties R) (unbounded_leaf_sound closure R)).
Qed.

Corollary closed_within_claims : forall R key closure P N M S root, M = N \/ (empties root < N /\ N <= M) ->
  (closed_within R key closure P false N S root = true -> wins_within R P M root) /\
  (closed_within R key closure P true N S root = true -> does_not_lose_within R P M root).
Proof.
  intros R key closure.
  exact (Checker.trie_closed_within_claims _ _ _ _ _ _ state_eqb_eq _ (children_empties R) _ (children_exact R) (count_leaf_sound closure R)).
Qed.
