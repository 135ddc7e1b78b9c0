(** The table kind's soundness-critical check: a map [L] from positions to values (for the side
    to move) in which every label is the minimax of its children's labels, and every end's label
    its result. [labels_sound]: then every label is the position's game value. *)

From Coq Require Import List Bool Arith Lia Wellfounded.
Import ListNotations.
From Verified Require Import Rules Claims Checker Positional.

(** A value for the side to move. *)
Inductive value := Loss | Draw | Win.

Definition value_eqb (a b : value) : bool :=
  match a, b with Loss, Loss | Draw, Draw | Win, Win => true | _, _ => false end.

Definition neg (v : value) : value := match v with Loss => Win | Draw => Draw | Win => Loss end.

Definition rank (v : value) : nat := match v with Loss => 0 | Draw => 1 | Win => 2 end.

Definition vmax (a b : value) : value := if rank b <=? rank a then a else b.

(** The value of an end for the side to move. *)
Definition end_value (b : board) (o : outcome) : value :=
  match o with
  | Won p => if player_eqb p (to_move b) then Win else Loss
  | Drawn => Draw
  end.

(** A map from the boards of [cells] cells to labels: any function at all. The driver passes one
    that reads the table's labels by state code; the theorem holds whatever it computes, so
    neither the code nor the lookup is trusted -- only that it is a function (the same board gets
    the same answer every time). *)
Record label_map := { cells : nat; lookup : board -> option value }.

(** Does [b] have [n] cells? *)
Fixpoint has_length (n : nat) (b : board) : bool :=
  match n, b with
  | O, [] => true
  | S n', _ :: b' => has_length n' b'
  | _, _ => false
  end.

(** A board's label: none for a board of another size. (The lookup comes first: the check asks
    about every board of the table's size, and most boards of a sparse table have no label.) *)
Definition value_of (L : label_map) (b : board) : option value :=
  match lookup L b with
  | Some v => if has_length (cells L) b then Some v else None
  | None => None
  end.

(** The best of the children for the side to move: the largest negated child value; [None] if a
    child has no label. *)
Fixpoint best (L : label_map) (cs : list board) : option value :=
  match cs with
  | [] => Some Loss
  | c :: rest =>
      match value_of L c, best L rest with
      | Some v, Some w => Some (vmax (neg v) w)
      | _, _ => None
      end
  end.

Definition label_ok (g : game) (L : label_map) (b : board) (v : value) : bool :=
  match result g b with
  | Some o => value_eqb v (end_value b o)
  | None => match best L (children g b) with Some w => value_eqb v w | None => false end
  end.

(** [f] holds for every board [p ++ suffix] with [p] of [n] cells. Boards are made by consing
    onto a shared suffix, and the recursion is only [n] deep: enumerating the 3^16 boards of a
    4×4 game allocates little and keeps no list of them. *)
Fixpoint all_boards (n : nat) (suffix : board) (f : board -> bool) : bool :=
  match n with
  | O => f suffix
  | S n' =>
      if all_boards n' (Empty :: suffix) f then
        if all_boards n' (Cross :: suffix) f then all_boards n' (Nought :: suffix) f else false
      else false
  end.

(** The check: every label of [L] is [label_ok]. *)
Definition labels_closed (g : game) (L : label_map) : bool :=
  all_boards (cells L) [] (fun b => match value_of L b with Some v => label_ok g L b v | None => true end).

(** What a label means: the side to move wins, the other player wins, or neither loses. *)
Definition holds (g : game) (b : board) (v : value) : Prop :=
  match v with
  | Win => wins g (to_move b) b
  | Loss => wins g (other (to_move b)) b
  | Draw => forall P, does_not_lose g P b
  end.

(* ---- proofs ---------------------------------------------------------------------------------- *)

Lemma value_eqb_eq : forall a b, value_eqb a b = true -> a = b.
Proof. destruct a, b; simpl; congruence. Qed.

(** The players alternate. *)
Lemma to_move_child : forall g b c, In c (children g b) -> to_move c = other (to_move b).
Proof.
  intros g b c H. destruct (children_counts _ _ _ H) as [_ [E _]]. unfold to_move. rewrite E.
  rewrite Nat.even_succ, <- Nat.negb_even. destruct (Nat.even (placed b)); reflexivity.
Qed.

Lemma other_other : forall p, other (other p) = p.
Proof. destruct p; reflexivity. Qed.

Lemma other_differs : forall p, p <> other p.
Proof. destruct p; discriminate. Qed.

Lemma not_this_then_other : forall p q, player_eqb p q = false -> p = other q.
Proof. destruct p, q; simpl; congruence. Qed.

Lemma vmax_rank : forall a b, rank a <= rank (vmax a b) /\ rank b <= rank (vmax a b).
Proof. destruct a, b; simpl; lia. Qed.

Lemma vmax_cases : forall a b, vmax a b = a \/ vmax a b = b.
Proof. destruct a, b; simpl; auto. Qed.

(** What [best] says about the children: each has a label no better for the mover than [w], and
    unless [w] is [Loss] some child attains it. *)
Lemma best_spec : forall L cs w, best L cs = Some w ->
  (forall c, In c cs -> exists v, value_of L c = Some v /\ rank (neg v) <= rank w) /\
  (w = Loss \/ exists c v, In c cs /\ value_of L c = Some v /\ neg v = w).
Proof.
  intros L cs. induction cs as [|c cs IH]; simpl; intros w H.
  - injection H as <-. split; [contradiction|left; reflexivity].
  - destruct (value_of L c) as [v|] eqn:Vc; [|discriminate].
    destruct (best L cs) as [w'|]; [|discriminate].
    injection H as <-. destruct (IH w' eq_refl) as [All Some'].
    destruct (vmax_rank (neg v) w') as [R1 R2]. split.
    + intros c' [<-|Hin].
      * exists v. split; [exact Vc|exact R1].
      * destruct (All c' Hin) as [v' [Hv' R]]. exists v'. split; [exact Hv'|lia].
    + destruct (vmax_cases (neg v) w') as [E|E]; rewrite E.
      * right. exists c, v. auto.
      * destruct Some' as [L'|[c' [v' [Hin [Hv' Hn]]]]]; [left; exact L'|].
        right. exists c', v'. auto.
Qed.

Lemma all_boards_every : forall n suffix f, all_boards n suffix f = true ->
  forall p, length p = n -> f (p ++ suffix) = true.
Proof.
  induction n as [|n IH]; simpl; intros suffix f H p Hp.
  - destruct p; [exact H|discriminate].
  - destruct p as [|m p'] eqn:P; [discriminate|]. rewrite <- P in *.
    destruct (exists_last (l := p) ltac:(rewrite P; discriminate)) as [q [m' E]].
    rewrite E, <- app_assoc. simpl.
    assert (Hq : length q = n) by (rewrite E, app_length in Hp; simpl in Hp; lia).
    destruct (all_boards n (Empty :: suffix) f) eqn:H1; [|discriminate].
    destruct (all_boards n (Cross :: suffix) f) eqn:H2; [|discriminate].
    destruct m'; [exact (IH _ _ H1 q Hq)|exact (IH _ _ H2 q Hq)|exact (IH _ _ H q Hq)].
Qed.

Lemma has_length_length : forall n b, has_length n b = true -> length b = n.
Proof.
  induction n as [|n IH]; destruct b as [|m b]; simpl; try congruence.
  intro H. rewrite (IH _ H). reflexivity.
Qed.

Lemma value_of_label_ok : forall g L b v,
  labels_closed g L = true -> value_of L b = Some v -> label_ok g L b v = true.
Proof.
  intros g L b v Hc Hb. pose proof Hb as Hv. unfold value_of in Hv.
  destruct (lookup L b); [|discriminate].
  destruct (has_length (cells L) b) eqn:E; [|discriminate].
  pose proof (all_boards_every _ _ _ Hc b (has_length_length _ _ E)) as H.
  rewrite app_nil_r, Hb in H. exact H.
Qed.

(** The theorem: in a map that passes the check, every label is the position's game value. *)
Theorem labels_sound : forall g L b v,
  labels_closed g L = true -> value_of L b = Some v -> holds g b v.
Proof.
  intros g L b. induction b as [b IH] using (well_founded_induction (wf_inverse_image _ nat _ empties lt_wf)).
  intros v Hc Hb. pose proof (value_of_label_ok _ _ _ _ Hc Hb) as Hok. unfold label_ok in Hok.
  set (m := to_move b).
  destruct (result g b) as [o|] eqn:R.
  - apply value_eqb_eq in Hok. subst v. destruct o as [p|]; simpl.
    + destruct (player_eqb p (to_move b)) eqn:E; simpl.
      * apply player_eqb_eq in E. subst p. exact (forces_end _ _ _ _ _ _ _ _ R eq_refl).
      * apply not_this_then_other in E. subst p. exact (forces_end _ _ _ _ _ _ _ _ R eq_refl).
    + intro P. apply (forces_end _ _ _ _ _ _ _ _ R). discriminate.
  - destruct (best L (children g b)) as [w|] eqn:B; [|discriminate].
    apply value_eqb_eq in Hok. subst w. destruct (best_spec _ _ _ B) as [All Attained].
    assert (Child : forall c u, In c (children g b) -> value_of L c = Some u -> holds g c u)
      by (intros c u Hin Hu; exact (IH c (children_empties _ _ _ Hin) u Hc Hu)).
    destruct v; simpl.
    + (* every child is a win for its mover, the other player *)
      apply forces_every; [exact R|apply other_differs|].
      intros c Hin. destruct (All c Hin) as [u [Hu Rk]].
      destruct u; simpl in Rk; try lia.
      pose proof (Child c Win Hin Hu) as H. simpl in H. rewrite (to_move_child _ _ _ Hin) in H. exact H.
    + intro P. destruct (player_eqb P m) eqn:E.
      * apply player_eqb_eq in E. subst P.
        destruct Attained as [D|[c [u [Hin [Hu Hn]]]]]; [discriminate|].
        destruct u; try discriminate.
        exact (forces_choose _ _ _ _ _ _ _ c R eq_refl Hin (Child c Draw Hin Hu m)).
      * apply not_this_then_other in E. subst P.
        apply forces_every; [exact R|apply other_differs|].
        intros c Hin. destruct (All c Hin) as [u [Hu Rk]].
        destruct u; simpl in Rk; try lia.
        -- exact (Child c Draw Hin Hu (other m)).
        -- pose proof (Child c Win Hin Hu) as H. simpl in H. rewrite (to_move_child _ _ _ Hin) in H.
           exact (wins_no_loss _ _ _ _ _ _ H).
    + destruct Attained as [D|[c [u [Hin [Hu Hn]]]]]; [discriminate|].
      destruct u; try discriminate.
      pose proof (Child c Loss Hin Hu) as H. simpl in H.
      rewrite (to_move_child _ _ _ Hin), other_other in H.
      exact (forces_choose _ _ _ _ _ _ _ c R eq_refl Hin H).
Qed.
