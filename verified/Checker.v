(** The strategy kind's soundness-critical check, for any game of the interface of Claims.v and
    any set of the interface below: a finite set [S] of states, each with the index of the prover's
    chosen move, is closed under the strategy. Whoever built [S] (the driver walks the
    certificate's traversal to do it) need not be trusted: [closed_sound] shows that a closed set
    proves the claim at its root, and [closed_within_sound] the same for bounded claims. Each is
    proved once, here, for every set that offers a membership test and a test of all its entries;
    the two sets the checker uses are instances: the trie of states under positive keys (below,
    [trie_closed]: Ultimate tic-tac-toe, bounded positional claims) and the packed binary tree of
    boards (Positional.v). What the proofs need of the game is a measure that every move lowers (the
    empty cells), so that play ends. *)

From Coq Require Import List Bool Arith Lia Wellfounded FMapPositive PArith.
Import ListNotations.
From Verified Require Import Rules Claims.

Module M := PositiveMap.

Lemma player_eqb_eq : forall p q, player_eqb p q = true <-> p = q.
Proof. destruct p, q; simpl; split; congruence. Qed.

(** Does an outcome satisfy the claim: [win] ([no_loss = false]) or [no-loss]? *)
Definition accepts (no_loss : bool) (P : player) (o : outcome) : bool :=
  match o with
  | Won q => player_eqb q P
  | Drawn => no_loss
  end.

Section Closure.
Variable state : Type.
Variable result : state -> option outcome.
Variable to_move : state -> player.
Variable children : state -> list state.
(** The set interface: a type of sets, a membership test, and a test that [f] holds for every
    entry (a state with its stored choice: the index of the prover's chosen move in [children];
    ignored at the opponent's positions and at ends). The one fact the proofs ask of them is
    [all_entries_mem] below. Nothing else about a set is trusted. *)
Variable set : Type.
Variable in_set : set -> state -> bool.
Variable all_entries : (state -> nat -> bool) -> set -> bool.
(** A closure: a state where the prover need not move on, because another argument (a pairing)
    proves the claim there; [leaf_sound] below asks exactly that of it. A game without closures
    passes [fun _ _ _ => false]. *)
Variable leaf : player -> bool -> state -> bool.
(** An image: a state [S] holds by a symmetry -- [image S s] is the state of [S] that stands for
    [s] ([image_sound] below: as good for the claim, with as many plies to play). A family without
    images passes [fun _ _ => None]. *)
Variable image : set -> state -> option state.
(** The replies: at an opponent's position, [replies P no_loss mem s] says that every move is
    accounted for, [mem] telling which states [S] holds (or holds by an image). The plain check,
    every family's unless it proves more, is [forallb mem (children s)]; a family may leave a reply
    out of [S] where it proves the claim there itself ([replies_sound] below: positional proofs that
    list only the blocks, Blocks.v). *)
Variable replies : player -> bool -> (state -> bool) -> state -> bool.

(** A state [S] holds, itself or by an image. *)
Definition member (S : set) (s : state) : bool :=
  in_set S s || match image S s with Some t => in_set S t | None => false end.

(** One state of [S]: an end satisfies the claim; at the prover's turn the state is a closure or
    the chosen child is a member of [S]; at the opponent's the replies are accounted for. *)
Definition node_ok (P : player) (no_loss : bool) (S : set) (s : state) (c : nat) : bool :=
  match result s with
  | Some o => accepts no_loss P o
  | None =>
      if player_eqb (to_move s) P then
        leaf P no_loss s || match nth_error (children s) c with Some ch => member S ch | None => false end
      else replies P no_loss (member S) s
  end.

(** The closure check: the root is in [S] and every entry of [S] is [node_ok]. *)
Definition closed (P : player) (no_loss : bool) (S : set) (root : state) : bool :=
  in_set S root && all_entries (node_ok P no_loss S) S.

(* ---- proofs ---------------------------------------------------------------------------------- *)

(** What the proofs ask of the set: a state in [S] has an entry, and [all_entries f S] holds it to
    [f] -- for the states of [inv], a property the root has and every move keeps (the packed set
    decodes its entries as boards of the root's size, so it answers only for those). *)
Variable inv : state -> Prop.
Variable all_entries_mem : forall f S s, all_entries f S = true -> in_set S s = true -> inv s ->
  exists c, f s c = true.
Variable inv_children : forall s c, inv s -> In c (children s) -> inv c.
Variable measure : state -> nat.
Variable children_measure : forall s c, In c (children s) -> measure c < measure s.
Variable leaf_sound : forall P no_loss s, leaf P no_loss s = true ->
  forces state result to_move children P (fun o => accepts no_loss P o = true) s.
Variable image_sound : forall S s t, image S s = Some t -> inv s ->
  inv t /\ measure t = measure s /\
  forall P ok, forces state result to_move children P ok t -> forces state result to_move children P ok s.
Variable replies_sound : forall P no_loss mem s, replies P no_loss mem s = true -> result s = None ->
  to_move s <> P -> inv s -> forall c, In c (children s) ->
  mem c = true \/ forces state result to_move children P (fun o => accepts no_loss P o = true) c.

(** The theorem: if the closure check accepts, the prover can force an accepted outcome from
    every state of [S] of [inv], the root included. By well-founded induction on the measure; an
    image stands for a state of the same measure, so below the position that reaches it. *)
Theorem closed_sound : forall P no_loss S root, inv root ->
  closed P no_loss S root = true ->
  forces state result to_move children P (fun o => accepts no_loss P o = true) root.
Proof.
  intros P no_loss S root Hroot Hc. unfold closed in Hc. apply andb_prop in Hc as [Hr Hall].
  assert (Hs : forall s, inv s -> in_set S s = true ->
                 forces state result to_move children P (fun o => accepts no_loss P o = true) s).
  { intro s. induction s as [s IH] using (well_founded_induction (wf_inverse_image _ nat _ measure lt_wf)).
    intros Hi Hs. destruct (all_entries_mem _ _ _ Hall Hs Hi) as [c Hn].
    unfold node_ok in Hn. destruct (result s) as [o|] eqn:R.
    - exact (forces_end _ _ _ _ _ _ _ _ R Hn).
    - assert (Child : forall ch, In ch (children s) -> member S ch = true ->
                forces state result to_move children P (fun o => accepts no_loss P o = true) ch).
      { intros ch Hch Hm. pose proof (inv_children _ _ Hi Hch) as Ic. pose proof (children_measure _ _ Hch) as Lt.
        unfold member in Hm. apply orb_prop in Hm as [Hm|Hm]; [exact (IH _ Lt Ic Hm)|].
        destruct (image S ch) as [t|] eqn:E; [|discriminate].
        destruct (image_sound _ _ _ E Ic) as [It [Mt F]]. apply F.
        apply (IH t); [rewrite Mt; exact Lt|exact It|exact Hm]. }
      destruct (player_eqb (to_move s) P) eqn:T.
      + apply player_eqb_eq in T.
        destruct (leaf P no_loss s) eqn:Lf; [exact (leaf_sound _ _ _ Lf)|]. simpl in Hn.
        destruct (nth_error (children s) c) as [ch|] eqn:N; [|discriminate].
        apply nth_error_In in N.
        exact (forces_choose _ _ _ _ _ _ _ _ R T N (Child _ N Hn)).
      + assert (T' : to_move s <> P) by (intro E; apply player_eqb_eq in E; congruence).
        apply forces_every; [exact R|exact T'|].
        intros ch Hch. destruct (replies_sound _ _ _ _ Hn R T' Hi _ Hch) as [Hm|F]; [exact (Child _ Hch Hm)|exact F]. }
  exact (Hs _ Hroot Hr).
Qed.

(** The two claims of a certificate, as [Claims] states them. *)
Corollary closed_wins : forall P S root, inv root ->
  closed P false S root = true -> wins state result to_move children P root.
Proof.
  intros P S root Hi Hc. eapply forces_weaken; [|exact (closed_sound _ _ _ _ Hi Hc)].
  intros [q|] H; simpl in H; [|discriminate].
  apply player_eqb_eq in H. congruence.
Qed.

Corollary closed_no_loss : forall P S root, inv root ->
  closed P true S root = true -> does_not_lose state result to_move children P root.
Proof.
  intros P S root Hi Hc. eapply forces_weaken; [|exact (closed_sound _ _ _ _ Hi Hc)].
  intros [q|] H; simpl in H; [|discriminate].
  apply player_eqb_eq in H. subst q. destruct P; discriminate.
Qed.

(** The claims an unbounded certificate states, for every game and set of the interface. *)
Corollary closed_claims : forall P S root, inv root ->
  (closed P false S root = true -> wins state result to_move children P root) /\
  (closed P true S root = true -> does_not_lose state result to_move children P root).
Proof. intros P S root Hi. split; [apply closed_wins|apply closed_no_loss]; exact Hi. Qed.

(* ---- bounded claims -------------------------------------------------------------------------- *)

(** Bounded claims ([claim.within] N, Claims.[forces_within]). The ply of a state is counted from
    the root by the measure: a move lowers it by exactly one ([children_exact] below: a move fills
    one empty cell), so a state of [S] is [measure root - measure s] plies from the root whatever
    the path, and the set need not store it. A closure here is told the plies left:
    [leaf_within P no_loss n s] claims the prover holds the claim from [s] with [n] plies left. A
    game without closures passes [fun _ _ _ _ => false]. *)
Variable leaf_within : player -> bool -> nat -> state -> bool.

(** One state of [S], [top] being the root's measure: as [node_ok], but a state where play goes on
    with no ply left is accepted when the claim is [no-loss] (an end that is not a loss), and
    refused when it is [win] (play must have ended). *)
Definition node_within (P : player) (no_loss : bool) (N top : nat) (S : set) (s : state) (c : nat) : bool :=
  match result s with
  | Some o => accepts no_loss P o
  | None =>
      let ply := top - measure s in
      if N <=? ply then no_loss
      else if player_eqb (to_move s) P then
        leaf_within P no_loss (N - ply) s
        || match nth_error (children s) c with Some ch => in_set S ch | None => false end
      else forallb (in_set S) (children s)
  end.

(** The bounded closure check: the root is in [S] and every entry of [S] is [node_within]. *)
Definition closed_within (P : player) (no_loss : bool) (N : nat) (S : set) (root : state) : bool :=
  in_set S root && all_entries (node_within P no_loss N (measure root) S) S.

Variable children_exact : forall s c, In c (children s) -> Datatypes.S (measure c) = measure s.
Variable leaf_within_sound : forall P no_loss n s, leaf_within P no_loss n s = true ->
  forces_within state result to_move children P (fun o => accepts no_loss P o = true) (no_loss = true) n s.

(** The theorem: if the bounded check accepts, the prover holds the claim from the root within
    [N] plies. By induction on the plies left: a state of [S] at ply [d] from the root has
    [N - d] left, and its children (in [S]) one fewer. *)
Theorem closed_within_sound : forall P no_loss N S root, inv root ->
  closed_within P no_loss N S root = true ->
  forces_within state result to_move children P (fun o => accepts no_loss P o = true) (no_loss = true) N root.
Proof.
  intros P no_loss N S root Hroot Hc. unfold closed_within in Hc. apply andb_prop in Hc as [Hr Hall].
  assert (Hs : forall n s, inv s -> in_set S s = true -> measure s <= measure root ->
                 n + (measure root - measure s) = N ->
                 forces_within state result to_move children P (fun o => accepts no_loss P o = true)
                   (no_loss = true) n s).
  { intro n. induction n as [|m IH]; intros s Hi Hs Hle Hn;
      destruct (all_entries_mem _ _ _ Hall Hs Hi) as [c Hnode];
      unfold node_within in Hnode; destruct (result s) as [o|] eqn:R;
      try exact (within_end _ _ _ _ _ _ _ _ _ _ R Hnode).
    - replace (N <=? measure root - measure s) with true in Hnode by (symmetry; apply Nat.leb_le; lia).
      subst no_loss. exact (within_cut _ _ _ _ _ _ _ _ R eq_refl).
    - replace (N <=? measure root - measure s) with false in Hnode by (symmetry; apply Nat.leb_gt; lia).
      replace (N - (measure root - measure s)) with (Datatypes.S m) in Hnode by lia.
      assert (Child : forall ch, In ch (children s) -> in_set S ch = true ->
                forces_within state result to_move children P (fun o => accepts no_loss P o = true)
                  (no_loss = true) m ch).
      { intros ch Hin Hch. pose proof (children_exact _ _ Hin).
        apply IH; [exact (inv_children _ _ Hi Hin)|exact Hch|lia|lia]. }
      destruct (player_eqb (to_move s) P) eqn:T.
      + apply player_eqb_eq in T.
        destruct (leaf_within P no_loss (Datatypes.S m) s) eqn:Lf; [exact (leaf_within_sound _ _ _ _ Lf)|]. simpl in Hnode.
        destruct (nth_error (children s) c) as [ch|] eqn:Nth; [|discriminate].
        apply nth_error_In in Nth.
        exact (within_choose _ _ _ _ _ _ _ _ _ _ R T Nth (Child _ Nth Hnode)).
      + apply within_every; [exact R| |].
        * intro E. apply player_eqb_eq in E. congruence.
        * intros ch Hch. apply (Child _ Hch). exact (proj1 (forallb_forall _ _) Hnode _ Hch). }
  apply Hs; [exact Hroot|exact Hr|lia|lia].
Qed.

(** The two bounded claims of a certificate, as [Claims] states them. *)
Corollary closed_wins_within : forall P N S root, inv root ->
  closed_within P false N S root = true -> wins_within state result to_move children P N root.
Proof.
  intros P N S root Hi Hc. eapply forces_within_weaken; [| |exact (closed_within_sound _ _ _ _ _ Hi Hc)].
  - intros [q|] H; simpl in H; [|discriminate]. apply player_eqb_eq in H. congruence.
  - discriminate.
Qed.

Corollary closed_no_loss_within : forall P N S root, inv root ->
  closed_within P true N S root = true -> does_not_lose_within state result to_move children P N root.
Proof.
  intros P N S root Hi Hc. eapply forces_within_weaken; [| |exact (closed_within_sound _ _ _ _ _ Hi Hc)].
  - intros [q|] H; simpl in H; [|discriminate]. apply player_eqb_eq in H. subst q. destruct P; discriminate.
  - trivial.
Qed.

(** The claims a bounded certificate states, for every game and set of the interface (each
    family's file instantiates this one lemma): with the bound [N] checked, the claim holds with
    the bound [M] of the certificate -- [N] itself, or any bound past [N] when [N] is past the
    root's measure (the driver checks a bound past the root's empty cells at the empty cells plus
    one; the cut is never reached). *)
Corollary closed_within_claims : forall P N M S root, inv root -> M = N \/ (measure root < N /\ N <= M) ->
  (closed_within P false N S root = true -> wins_within state result to_move children P M root) /\
  (closed_within P true N S root = true -> does_not_lose_within state result to_move children P M root).
Proof.
  intros P N M S root Hi HM.
  assert (Larger : forall (ok : outcome -> Prop) (cut : Prop),
            forces_within state result to_move children P ok cut N root -> forces_within state result to_move children P ok cut M root).
  { intros ok cut H. destruct HM as [->|[L Lm]]; [exact H|exact (forces_within_larger _ _ _ _ measure P _ _ children_measure N root H L M Lm)]. }
  split; intro Hc; apply Larger; [exact (closed_wins_within _ _ _ _ Hi Hc)|exact (closed_no_loss_within _ _ _ _ Hi Hc)].
Qed.

End Closure.

(** The plain replies: every reply is a member of the set. *)
Definition every_reply {state : Type} (children : state -> list state) (P : player) (no_loss : bool)
  (mem : state -> bool) (s : state) : bool := forallb mem (children s).

Lemma every_reply_sound : forall (state : Type) children (result : state -> option outcome) to_move
  (inv : state -> Prop) P no_loss mem s, every_reply children P no_loss mem s = true -> result s = None ->
  to_move s <> P -> inv s -> forall c, In c (children s) ->
  mem c = true \/ forces state result to_move children P (fun o => accepts no_loss P o = true) c.
Proof. intros. left. exact (proj1 (forallb_forall _ _) H _ H3). Qed.

(* ---- the trie: states under positive keys ---------------------------------------------------- *)

(** [f] holds for every entry of a trie. (A walk of the trie, whose depth is the key length,
    rather than a list of all states: the extracted code's stack stays small; and unlike [M.fold]
    it does not rebuild the keys, whose cost grows with the square of their length.) *)
Fixpoint trie_all {A : Type} (f : A -> bool) (m : M.t A) : bool :=
  match m with
  | M.Leaf _ => true
  | M.Node l o r =>
      trie_all f l && match o with Some e => f e | None => true end && trie_all f r
  end.

Lemma trie_all_find : forall (A : Type) (f : A -> bool) m k e,
  trie_all f m = true -> M.find k m = Some e -> f e = true.
Proof.
  intros A f m. induction m as [|l IHl o r IHr]; intros k e H F.
  - destruct k; discriminate.
  - simpl in H. apply andb_prop in H as [H Hr]. apply andb_prop in H as [Hl Ho].
    destruct k as [k|k|]; simpl in F.
    + exact (IHr _ _ Hr F).
    + exact (IHl _ _ Hl F).
    + subst o. exact Ho.
Qed.

(** The trie instance of the set interface: each state under its key, with the prover's chosen
    move. Besides the game, it takes a key for each state (a [positive]: where [S] files it) and an
    equality test of states. Any key function will do: [trie_in_set] compares the stored state, so
    a bad key can only make the check refuse. The closure checks of Uttt.v, Count.v and Bounded.v
    are [trie_closed] and [trie_closed_within]; their theorems, below, are [closed_sound] and
    [closed_within_sound] of the interface, with every state in [inv]. *)
Section Trie.
Variable state : Type.
Variable result : state -> option outcome.
Variable to_move : state -> player.
Variable children : state -> list state.
Variable key : state -> positive.
Variable eqb : state -> state -> bool.
Variable leaf : player -> bool -> state -> bool.

Definition strategy_set := M.t (state * nat).

Definition trie_in_set (S : strategy_set) (s : state) : bool :=
  match M.find (key s) S with
  | Some (s', _) => eqb s s'
  | None => false
  end.

Definition trie_entries (f : state -> nat -> bool) (S : strategy_set) : bool :=
  trie_all (fun e => f (fst e) (snd e)) S.

(** The trie's states have no images, and every reply is in it. *)
Definition trie_closed := closed state result to_move children strategy_set trie_in_set trie_entries leaf
  (fun _ _ => None) (every_reply children).

Variable eqb_eq : forall a b, eqb a b = true -> a = b.
Variable measure : state -> nat.
Variable children_measure : forall s c, In c (children s) -> measure c < measure s.
Variable leaf_sound : forall P no_loss s, leaf P no_loss s = true ->
  forces state result to_move children P (fun o => accepts no_loss P o = true) s.

(** The one fact the interface asks of the trie, for every state. *)
Lemma trie_entries_mem : forall f S s, trie_entries f S = true -> trie_in_set S s = true -> True ->
  exists c, f s c = true.
Proof.
  unfold trie_entries, trie_in_set. intros f S s Hall Hs _.
  destruct (M.find (key s) S) as [[s' c]|] eqn:F; [|discriminate].
  apply eqb_eq in Hs. subst s'.
  exists c. exact (trie_all_find _ _ _ _ _ Hall F).
Qed.

Lemma no_image : forall (S : strategy_set) s t, (fun (_ : strategy_set) (_ : state) => @None state) S s = Some t ->
  True -> True /\ measure t = measure s /\
  forall P ok, forces state result to_move children P ok t -> forces state result to_move children P ok s.
Proof. discriminate. Qed.

Corollary trie_closed_wins : forall P S root,
  trie_closed P false S root = true -> wins state result to_move children P root.
Proof.
  intros P S root. apply (closed_wins _ _ _ _ _ _ _ _ _ _ (fun _ => True) trie_entries_mem (fun _ _ _ _ => I)
                          measure children_measure leaf_sound no_image
                          (every_reply_sound state children result to_move (fun _ => True))); exact I.
Qed.

Corollary trie_closed_no_loss : forall P S root,
  trie_closed P true S root = true -> does_not_lose state result to_move children P root.
Proof.
  intros P S root. apply (closed_no_loss _ _ _ _ _ _ _ _ _ _ (fun _ => True) trie_entries_mem (fun _ _ _ _ => I)
                          measure children_measure leaf_sound no_image
                          (every_reply_sound state children result to_move (fun _ => True))); exact I.
Qed.

Corollary trie_closed_claims : forall P S root,
  (trie_closed P false S root = true -> wins state result to_move children P root) /\
  (trie_closed P true S root = true -> does_not_lose state result to_move children P root).
Proof. intros P S root. split; [apply trie_closed_wins|apply trie_closed_no_loss]. Qed.

(** Bounded claims over the trie. *)
Variable leaf_within : player -> bool -> nat -> state -> bool.

Definition trie_closed_within :=
  closed_within state result to_move children strategy_set trie_in_set trie_entries measure leaf_within.

Variable children_exact : forall s c, In c (children s) -> Datatypes.S (measure c) = measure s.
Variable leaf_within_sound : forall P no_loss n s, leaf_within P no_loss n s = true ->
  forces_within state result to_move children P (fun o => accepts no_loss P o = true) (no_loss = true) n s.

Corollary trie_closed_within_claims : forall P N M S root, M = N \/ (measure root < N /\ N <= M) ->
  (trie_closed_within P false N S root = true -> wins_within state result to_move children P M root) /\
  (trie_closed_within P true N S root = true -> does_not_lose_within state result to_move children P M root).
Proof.
  intros P N M S root.
  exact (closed_within_claims _ _ _ _ _ _ _ (fun _ => True) trie_entries_mem (fun _ _ _ _ => I)
           measure children_measure leaf_within children_exact leaf_within_sound P N M S root I).
Qed.
End Trie.
