(** The positional family's proof check, as the driver calls it: Positional.v's closure check over
    the packed trees, with pairings as closures (Pairing.v, proof.closures), the replies of
    Blocks.v (proof.replies "blocks") and the images of Images.v (proof.symmetries). [closure] and
    [syms] are the driver's, read from the file: any function and any list at all, since a pairing
    counts only when [pairing_check] accepts it, a permutation only when [valid] does, and a reply
    left out only where [blocks] proves it lost. *)

From Coq Require Import List Bool.
From Verified Require Import Rules Claims Checker Positional Pairing Blocks Images.

Definition closed (g : game) (closure : board -> option (option nat * list (nat * nat)))
  (syms : list (list nat)) (P : player) (no_loss : bool) (S : sets) (root : board) : bool :=
  let vs := validate g (length root) syms in
  Positional.closed g (pairing_leaf g closure) (image vs) (Blocks.replies g) P no_loss S root.

Theorem closed_sound : forall g closure syms P no_loss S root, closed g closure syms P no_loss S root = true ->
  forces board (result g) to_move (children g) P (fun o => accepts no_loss P o = true) root.
Proof.
  intros g closure syms P no_loss S root. apply Positional.closed_sound.
  - exact (pairing_leaf_sound g closure).
  - intros S' b t E L. exact (image_sound g (length root) syms S' b t E L).
  - exact (replies_sound g).
Qed.

(** The two claims of a proof tree about a positional game. *)
Corollary closed_wins : forall g closure syms P S root, closed g closure syms P false S root = true -> wins g P root.
Proof.
  intros g closure syms P S root Hc. eapply forces_weaken; [|exact (closed_sound _ _ _ _ _ _ _ Hc)].
  intros [q|] H; simpl in H; [|discriminate]. apply player_eqb_eq in H. congruence.
Qed.

Corollary closed_no_loss : forall g closure syms P S root, closed g closure syms P true S root = true -> does_not_lose g P root.
Proof.
  intros g closure syms P S root Hc. eapply forces_weaken; [|exact (closed_sound _ _ _ _ _ _ _ Hc)].
  intros [q|] H; simpl in H; [|discriminate]. apply player_eqb_eq in H. subst q. destruct P; discriminate.
Qed.
