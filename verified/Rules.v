(** The positional rules, stated plainly, as docs/certificate-format.md and checker/positional.py
    read them: a board is a list of cells (row-major), a line a list of cell numbers, a move fills
    one empty cell with a mark the side to move may place. *)

From Coq Require Import List Bool Arith.
Import ListNotations.

(** A cell: empty, X (Cross) or O (Nought). *)
Inductive mark := Empty | Cross | Nought.
Inductive player := P1 | P2.
Inductive mark_rule := Own | Either | XOnly.
Inductive goal := FirstLineWins | FirstLineLoses | MostLines.

(** A game of the family. The board size is the length of the board: rows and columns only
    matter for printing and for reading a position, which the driver does. *)
Record game := { lines : list (list nat); marks : mark_rule; goal_of : goal }.

Definition board := list mark.

(** How a finished game ended. *)
Inductive outcome := Won (p : player) | Drawn.

Definition mark_eqb (a b : mark) : bool :=
  match a, b with
  | Empty, Empty | Cross, Cross | Nought, Nought => true
  | _, _ => false
  end.

Definition player_eqb (p q : player) : bool :=
  match p, q with P1, P1 | P2, P2 => true | _, _ => false end.

Definition other (p : player) : player := match p with P1 => P2 | P2 => P1 end.

Definition is_empty (m : mark) : bool := mark_eqb m Empty.

(** Marks on the board, and empty cells. *)
Definition placed (b : board) : nat := length (filter (fun m => negb (is_empty m)) b).
Definition empties (b : board) : nat := length (filter is_empty b).

(** Player 1 moves when the board holds an even number of marks. *)
Definition to_move (b : board) : player := if Nat.even (placed b) then P1 else P2.

Definition cell_at (b : board) (c : nat) : mark := nth c b Empty.

(** The mark that completes a line (all its cells hold it), if any; a line of empty cells is not
    complete. *)
Definition complete (b : board) (line : list nat) : option mark :=
  match line with
  | [] => None
  | c :: rest =>
      let m := cell_at b c in
      if is_empty m then None
      else if forallb (fun d => mark_eqb (cell_at b d) m) rest then Some m else None
  end.

Definition completed_in (g : game) (b : board) (m : mark) : nat :=
  length (filter (fun l => match complete b l with Some m' => mark_eqb m' m | None => false end)
                 (lines g)).

Definition some_complete (g : game) (b : board) : bool :=
  existsb (fun l => match complete b l with Some _ => true | None => false end) (lines g).

Definition full (b : board) : bool := forallb (fun m => negb (is_empty m)) b.

(** The result with the side to move: [None] while play goes on. First-line goals end at the first
    complete line, which the previous mover completed; most-lines ends on the full board, player 1
    owning X's lines and player 2 O's. *)
Definition result (g : game) (b : board) : option outcome :=
  match goal_of g with
  | MostLines =>
      if full b then
        let x := completed_in g b Cross in
        let o := completed_in g b Nought in
        Some (if o <? x then Won P1 else if x <? o then Won P2 else Drawn)
      else None
  | FirstLineWins =>
      if some_complete g b then Some (Won (other (to_move b)))
      else if full b then Some Drawn else None
  | FirstLineLoses =>
      if some_complete g b then Some (Won (to_move b))
      else if full b then Some Drawn else None
  end.

(** The marks player [p] may place. *)
Definition placeable (g : game) (p : player) : list mark :=
  match marks g with
  | Either => [Cross; Nought]
  | XOnly => [Cross]
  | Own => [match p with P1 => Cross | P2 => Nought end]
  end.

(** Every board made by filling one empty cell of [b] with one of [ms]: by cell, then by the
    order of [ms] -- the canonical move order. *)
Fixpoint fills (ms : list mark) (b : board) : list board :=
  match b with
  | [] => []
  | m :: rest =>
      if is_empty m then map (fun m' => m' :: rest) ms ++ map (cons m) (fills ms rest)
      else map (cons m) (fills ms rest)
  end.

(** The positions after each legal move, in the canonical order; none once the game is over. *)
Definition children (g : game) (b : board) : list board :=
  match result g b with
  | Some _ => []
  | None => fills (placeable g (to_move b)) b
  end.
