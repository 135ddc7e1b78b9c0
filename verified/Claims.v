(** What a certificate of kind [strategy] claims, for any game: player [P] can force the game, from
    a position, to end in an outcome the claim accepts -- a win for [P], or anything but a loss.

    The game interface: a type of states, the result of a state ([None] while play goes on), the
    side to move, and the states after each legal move in the canonical order. The positional
    family (Rules.v, Positional.v) and Ultimate tic-tac-toe (Uttt.v) are instances; this one
    definition of the claims, and one closure theorem (Checker.v), serve both. *)

From Coq Require Import List.
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

End Claims.
