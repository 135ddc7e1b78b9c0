(** What a certificate of kind [strategy] claims, for any game: player [P] can force the game, from
    a position, to end in an outcome the claim accepts -- a win for [P], or anything but a loss.

    The game interface: a type of states, the result of a state ([None] while play goes on), the
    side to move, and the states after each legal move in the canonical order. The positional
    family (Rules.v, Positional.v) and Ultimate tic-tac-toe (Uttt.v) are instances; this one
    definition of the claims, and one closure theorem (Checker.v), serve both. *)

From Coq Require Import List Arith Lia.
From Verified Require Import Rules.

Section Claims.
Variable state : Type.
Variable result : state -> option outcome.
Variable to_move : state -> player.
Variable children : state -> list state.

(** [forces P ok s]: from [s], player [P] can make every play end in an outcome satisfying [ok].
    At an end, the outcome does; where [P] moves, some move leads to such a position; where the
    opponent moves, every move does. *)
Inductive forces (P : player) (ok : outcome -> Prop) : state -> Prop :=
  | forces_end : forall s o,
      result s = Some o -> ok o -> forces P ok s
  | forces_choose : forall s c,
      result s = None -> to_move s = P -> In c (children s) -> forces P ok c -> forces P ok s
  | forces_every : forall s,
      result s = None -> to_move s <> P ->
      (forall c, In c (children s) -> forces P ok c) -> forces P ok s.

(** Player [P] wins from [s]. *)
Definition wins (P : player) (s : state) : Prop := forces P (fun o => o = Won P) s.

(** Player [P] does not lose from [s]: every play ends in a win for [P] or a draw. *)
Definition does_not_lose (P : player) (s : state) : Prop := forces P (fun o => o <> Won (other P)) s.

Lemma forces_weaken : forall P (ok ok' : outcome -> Prop) s,
  (forall o, ok o -> ok' o) -> forces P ok s -> forces P ok' s.
Proof.
  intros P ok ok' s Hw H. induction H as [s o R Ho|s c R T Hin _ IH|s R T _ IH].
  - exact (forces_end _ _ _ _ R (Hw _ Ho)).
  - exact (forces_choose _ _ _ _ R T Hin IH).
  - exact (forces_every _ _ _ R T IH).
Qed.

Lemma wins_no_loss : forall P s, wins P s -> does_not_lose P s.
Proof.
  intros P s H. eapply forces_weaken; [|exact H].
  intros o -> E. injection E. destruct P; discriminate.
Qed.

(** Bounded claims ([claim.within] N): [forces_within P ok cut n s] is [forces] with [n] plies left
    before the bound. An end satisfies [ok] as before; a position where play goes on with no ply
    left is accepted when [cut] holds; otherwise a move (the prover's chosen one, or every one of
    the opponent's) leads to a position with one ply fewer left. The ply is counted from the
    certificate's root, which has N plies left. *)
Inductive forces_within (P : player) (ok : outcome -> Prop) (cut : Prop) : nat -> state -> Prop :=
  | within_end : forall n s o,
      result s = Some o -> ok o -> forces_within P ok cut n s
  | within_cut : forall s,
      result s = None -> cut -> forces_within P ok cut 0 s
  | within_choose : forall n s c,
      result s = None -> to_move s = P -> In c (children s) -> forces_within P ok cut n c ->
      forces_within P ok cut (S n) s
  | within_every : forall n s,
      result s = None -> to_move s <> P ->
      (forall c, In c (children s) -> forces_within P ok cut n c) -> forces_within P ok cut (S n) s.

(** Player [P] forces a win within [N] plies: every play ends, in a win for [P], by ply [N]. *)
Definition wins_within (P : player) (N : nat) (s : state) : Prop :=
  forces_within P (fun o => o = Won P) False N s.

(** Player [P] is not beaten within [N] plies: no play ends in a win for the other player by ply
    [N] (a position at ply [N] where play goes on counts as an end that is not a loss). *)
Definition does_not_lose_within (P : player) (N : nat) (s : state) : Prop :=
  forces_within P (fun o => o <> Won (other P)) True N s.

Lemma forces_within_weaken : forall P (ok ok' : outcome -> Prop) (cut cut' : Prop) n s,
  (forall o, ok o -> ok' o) -> (cut -> cut') -> forces_within P ok cut n s -> forces_within P ok' cut' n s.
Proof.
  intros P ok ok' cut cut' n s Hw Hc H.
  induction H as [n s o R Ho|s R C|n s c R T Hin _ IH|n s R T _ IH].
  - exact (within_end _ _ _ _ _ _ R (Hw _ Ho)).
  - exact (within_cut _ _ _ _ R (Hc C)).
  - exact (within_choose _ _ _ _ _ _ R T Hin IH).
  - exact (within_every _ _ _ _ _ R T IH).
Qed.

(** An unbounded claim holds within any bound where the bound's cut is accepted: "does not lose"
    implies "is not beaten within N". *)
Lemma forces_forces_within : forall P (ok : outcome -> Prop) (cut : Prop) s,
  cut -> forces P ok s -> forall n, forces_within P ok cut n s.
Proof.
  intros P ok cut s C H. induction H as [s o R Ho|s c R T Hin _ IH|s R T _ IH]; intro n.
  - exact (within_end _ _ _ _ _ _ R Ho).
  - destruct n; [exact (within_cut _ _ _ _ R C)|exact (within_choose _ _ _ _ _ _ R T Hin (IH n))].
  - destruct n; [exact (within_cut _ _ _ _ R C)|exact (within_every _ _ _ _ _ R T (fun c Hc => IH c Hc n))].
Qed.

(** A bound never reached changes nothing: if play goes on only where a move exists, and every
    move lowers a [measure], a bounded claim with at least [measure s] plies left is the
    unbounded claim. *)
Lemma forces_within_forces : forall (measure : state -> nat) P (ok : outcome -> Prop) (cut : Prop),
  (forall s c, In c (children s) -> measure c < measure s) ->
  (forall s, result s = None -> children s <> nil) ->
  forall n s, forces_within P ok cut n s -> measure s <= n -> forces P ok s.
Proof.
  intros measure P ok cut Hm Hgo n s H. induction H as [n s o R Ho|s R C|n s c R T Hin _ IH|n s R T _ IH]; intro L.
  - exact (forces_end _ _ _ _ R Ho).
  - exfalso. destruct (children s) as [|c cs] eqn:E; [exact (Hgo _ R E)|].
    assert (In c (children s)) as Hc by (rewrite E; left; reflexivity).
    specialize (Hm _ _ Hc). inversion L. rewrite H0 in Hm. inversion Hm.
  - apply (forces_choose _ _ _ _ R T Hin). apply IH. specialize (Hm _ _ Hin). apply le_S_n.
    eapply Nat.le_trans; [exact Hm|exact L].
  - apply (forces_every _ _ _ R T). intros c Hc. apply (IH c Hc). specialize (Hm _ _ Hc). apply le_S_n.
    eapply Nat.le_trans; [exact Hm|exact L].
Qed.

Lemma wins_within_wins : forall P N s, wins_within P N s -> wins P s.
Proof.
  intros P N s H. unfold wins_within in H. induction H as [n s o R Ho|s R C|n s c R T Hin _ IH|n s R T _ IH].
  - exact (forces_end _ _ _ _ R Ho).
  - contradiction.
  - exact (forces_choose _ _ _ _ R T Hin IH).
  - exact (forces_every _ _ _ R T IH).
Qed.

Lemma does_not_lose_within_any : forall P N s, does_not_lose P s -> does_not_lose_within P N s.
Proof. intros P N s H. exact (forces_forces_within _ _ _ _ I H N). Qed.

(** A bound past the end changes nothing: if every move lowers a [measure], a bounded claim with
    more plies left than the measure holds with any larger bound (the cut is never reached). The
    driver checks a bound larger than the root's empty cells at the empty cells plus one. *)
Lemma forces_within_larger : forall (measure : state -> nat) P (ok : outcome -> Prop) (cut : Prop),
  (forall s c, In c (children s) -> measure c < measure s) ->
  forall n s, forces_within P ok cut n s -> measure s < n -> forall m, n <= m -> forces_within P ok cut m s.
Proof.
  intros measure P ok cut Hm n s H. induction H as [n s o R Ho|s R C|n s c R T Hin _ IH|n s R T _ IH]; intros L m Lm.
  - exact (within_end _ _ _ _ _ _ R Ho).
  - inversion L.
  - destruct m as [|m]; [inversion Lm|]. apply (within_choose _ _ _ _ _ _ R T Hin). apply IH; [|apply le_S_n; exact Lm].
    pose proof (Hm _ _ Hin) as Hlt. lia.
  - destruct m as [|m]; [inversion Lm|]. apply (within_every _ _ _ _ _ R T). intros c Hc. apply (IH c Hc); [|apply le_S_n; exact Lm].
    pose proof (Hm _ _ Hc) as Hlt. lia.
Qed.

End Claims.
