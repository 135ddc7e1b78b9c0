(* The strategy kind. Trusted: reading the claim and the root, and the one call of Core.closed that
   decides VALID. Untrusted: the traversal that builds the set of positions from proof.moves (a
   wrong set is refused by Core.closed) -- with the stdlib checker's failures, so that the two
   checkers give the same line (checker/proof.py). *)

open Load
open Positional

(* Walk the certificate's canonical traversal (docs/certificate-format.md), with the stdlib
   checker's failures, and return the positions seen with the prover's chosen move index. *)
let traverse r game player no_loss root positions turns moves : Core.strategy_set =
  let prover = if player = 1 then Core.P1 else Core.P2 in
  let seen = ref Core.M.empty and count = ref 0 and used = ref 0 in
  let stack = Stack.create () in
  Stack.push root stack;
  while not (Stack.is_empty stack) do
    let b = Stack.pop stack in
    let key = Core.key_of b in
    if Core.M.find key !seen = None then begin
      incr count;
      if !count mod 100_000 = 0 then progress "positions" !count;
      if !count > positions then invalid "the strategy reaches more than proof.positions = %d positions" positions;
      let choice = ref 0 in
      (match Core.children game b with
       | [] ->
         let score = match Core.result game b with
           | Some (Core.Won p) -> if p = prover then 1 else -1 | _ -> 0 in
         if score < (if no_loss then 0 else 1) then
           invalid "play reaches the end %s, a %s for player %d" (draw_board r b) (value_word score) player
       | children when Core.to_move b = prover ->
         if !used = turns then
           invalid "proof.moves ends before player %d's turn at %s" player (draw_board r b);
         let index = Char.code moves.[!used] in
         incr used;
         if index >= List.length children then
           invalid "proof.moves[%d] = %d at %s, which has only %d legal moves" (!used - 1) index
             (draw_board r b) (List.length children);
         choice := index;
         Stack.push (List.nth children index) stack
       | children -> List.iter (fun c -> Stack.push c stack) (List.rev children));
      seen := Core.M.add key (b, nat_of_int !choice) !seen
    end
  done;
  if !used <> turns then invalid "proof.moves has %d move(s) the strategy never uses" (turns - !used);
  if !count <> positions then
    invalid "proof.positions = %d, but the strategy reaches %d positions" positions !count;
  !seen

let check limits r doc : string =
  let claim = obj "certificate" "claim" doc in
  let player = int_in "claim" "player" 1 2 claim in
  let result = word "claim" "result" ["win"; "no-loss"] claim in
  let root_text = match member "claim" "root" claim with
    | Null -> None | Str s -> Some s | v -> error "claim.root must be string or null, found %s" (type_name v) in
  let proof = obj "certificate" "proof" doc in
  ignore (word "proof" "traversal" ["dfs-preorder"] proof);
  let positions = int_in "proof" "positions" 1 1_000_000_000_000_000_000 proof in
  if positions > limits.max_states then
    error "proof.positions = %d: over the work budget (%d positions); to check a large proof, raise it: --max-states %d"
      positions limits.max_states positions;
  let turns = int_in "proof" "turns" 0 positions proof in
  let moves = Unpack.field "proof" "moves" turns proof in
  let root = match root_text with None -> empty_board r | Some t -> parse_position r t in
  let game = game_of r and prover = if player = 1 then Core.P1 else Core.P2 in
  let no_loss = result = "no-loss" in
  let set = traverse r game player no_loss root positions turns moves in
  (* The one verdict that matters: Checker.closed_wins / closed_no_loss prove the claim from it. *)
  if not (Core.closed game prover no_loss set root) then
    invalid "the closure check refuses the set of positions the traversal built";
  let where = match root_text with None -> "the start"
                                 | Some t -> "position " ^ cut 120 (ascii_repr t) in
  Printf.sprintf "player %d %s from %s: %s, %s of player %d checked"
    player (if no_loss then "does not lose" else "wins") where
    (counted positions "position" "positions") (counted turns "move" "moves") player
