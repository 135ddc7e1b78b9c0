(** The strategy kind's soundness-critical check: a finite set [S] of positions, each with the
    index of the prover's chosen move, is closed under the strategy. Whoever built [S] (the driver
    walks the certificate's traversal to do it) need not be trusted: [closed_sound] shows that a
    closed set proves the claim at its root. *)

From Coq Require Import List Bool Arith Lia Wellfounded FMapPositive PArith.
Import ListNotations.
From Verified Require Import Rules Claims.

Module M := PositiveMap.

(** Two bits per cell, outermost first, ending in [xH]: distinct boards get distinct keys, but the
    check never relies on it: [in_set] compares the stored board. *)
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

(** The set: each position under its key, with the prover's chosen move (an index into
    [children]; ignored at the opponent's positions and at ends). *)
Definition strategy_set := M.t (board * nat).

Definition in_set (S : strategy_set) (b : board) : bool :=
  match M.find (key_of b) S with
  | Some (b', _) => board_eqb b b'
  | None => false
  end.

(** Does an outcome satisfy the claim: [win] ([no_loss = false]) or [no-loss]? *)
Definition accepts (no_loss : bool) (P : player) (o : outcome) : bool :=
  match o with
  | Won q => player_eqb q P
  | Drawn => no_loss
  end.

(** One position of [S]: an end satisfies the claim; at the prover's turn the chosen child is in
    [S]; at the opponent's every child is. *)
Definition node_ok (g : game) (P : player) (no_loss : bool) (S : strategy_set) (b : board) (c : nat)
  : bool :=
  match result g b with
  | Some o => accepts no_loss P o
  | None =>
      if player_eqb (to_move b) P then
        match nth_error (children g b) c with Some ch => in_set S ch | None => false end
      else forallb (in_set S) (children g b)
  end.

(** The closure check: the root is in [S] and every position of [S] is [node_ok]. (A fold over
    the trie, whose depth is the key length, rather than a list of all positions: the extracted
    code's stack stays small.) *)
Definition closed (g : game) (P : player) (no_loss : bool) (S : strategy_set) (root : board) : bool :=
  in_set S root && M.fold (fun _ e ok => ok && node_ok g P no_loss S (fst e) (snd e)) S true.

(* ---- proofs ---------------------------------------------------------------------------------- *)

Lemma mark_eqb_eq : forall a b, mark_eqb a b = true -> a = b.
Proof. destruct a, b; simpl; congruence. Qed.

Lemma player_eqb_eq : forall p q, player_eqb p q = true <-> p = q.
Proof. destruct p, q; simpl; split; congruence. Qed.

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

Lemma fold_and : forall (A : Type) (f : A -> bool) l b,
  fold_left (fun ok e => ok && f e) l b = b && forallb f l.
Proof.
  intros A f l. induction l as [|e l IH]; intro b; simpl.
  - destruct b; reflexivity.
  - rewrite IH. destruct b, (f e); reflexivity.
Qed.

(** A position found in a closed set satisfies [node_ok] with its stored choice. *)
Lemma in_set_node_ok : forall g P no_loss S root b,
  closed g P no_loss S root = true -> in_set S b = true ->
  exists c, node_ok g P no_loss S b c = true.
Proof.
  unfold closed, in_set. intros g P no_loss S root b Hc Hb.
  apply andb_prop in Hc as [_ Hall]. rewrite M.fold_1, fold_and in Hall.
  destruct (M.find (key_of b) S) as [[b' c]|] eqn:F; [|discriminate].
  apply board_eqb_eq in Hb. subst b'.
  exists c. apply M.elements_correct in F.
  exact (proj1 (forallb_forall _ _) Hall _ F).
Qed.

(** The theorem: if the closure check accepts, the prover can force an accepted outcome from
    every position of [S], the root included. By well-founded induction on the empty cells. *)
Theorem closed_sound : forall g P no_loss S root,
  closed g P no_loss S root = true ->
  forces g P (fun o => accepts no_loss P o = true) root.
Proof.
  intros g P no_loss S root Hc.
  assert (Hall : forall b, in_set S b = true -> forces g P (fun o => accepts no_loss P o = true) b).
  { intro b. induction b as [b IH] using (well_founded_induction (wf_inverse_image _ nat _ empties lt_wf)).
    intro Hb. destruct (in_set_node_ok _ _ _ _ _ _ Hc Hb) as [c Hn].
    unfold node_ok in Hn. destruct (result g b) as [o|] eqn:R.
    - exact (forces_end _ _ _ _ _ R Hn).
    - destruct (player_eqb (to_move b) P) eqn:T.
      + apply player_eqb_eq in T.
        destruct (nth_error (children g b) c) as [ch|] eqn:N; [|discriminate].
        apply nth_error_In in N.
        exact (forces_choose _ _ _ _ _ R T N (IH _ (children_empties _ _ _ N) Hn)).
      + apply forces_every; [exact R| |].
        * intro E. apply player_eqb_eq in E. congruence.
        * intros ch Hch. apply (IH _ (children_empties _ _ _ Hch)).
          exact (proj1 (forallb_forall _ _) Hn _ Hch). }
  apply Hall. apply andb_prop in Hc as [Hr _]. exact Hr.
Qed.

Lemma forces_weaken : forall g P (ok ok' : outcome -> Prop) b,
  (forall o, ok o -> ok' o) -> forces g P ok b -> forces g P ok' b.
Proof.
  intros g P ok ok' b Hw H. induction H as [b o R Ho|b c R T Hin _ IH|b R T _ IH].
  - exact (forces_end _ _ _ _ _ R (Hw _ Ho)).
  - exact (forces_choose _ _ _ _ _ R T Hin IH).
  - exact (forces_every _ _ _ _ R T IH).
Qed.

(** The two claims of a certificate, as [Claims] states them. *)
Corollary closed_wins : forall g P S root,
  closed g P false S root = true -> wins g P root.
Proof.
  intros g P S root Hc. eapply forces_weaken; [|exact (closed_sound _ _ _ _ _ Hc)].
  intros [q|] H; simpl in H; [|discriminate].
  apply player_eqb_eq in H. congruence.
Qed.

Corollary closed_no_loss : forall g P S root,
  closed g P true S root = true -> does_not_lose g P root.
Proof.
  intros g P S root Hc. eapply forces_weaken; [|exact (closed_sound _ _ _ _ _ Hc)].
  intros [q|] H; simpl in H; [|discriminate].
  apply player_eqb_eq in H. subst q. destruct P; discriminate.
Qed.
