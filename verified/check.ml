(* verified/check CERT.json [--rules-sha256 HEX] [--max-states N] [--max-bytes N]

   Reads a certificate of kind strategy about a positional game and prints one line: VALID or
   INVALID on stdout (exit 0 or 1), or ERROR on stderr (exit 2: not a certificate this checker
   reads). VALID is printed only when Core.closed -- extracted from Checker.v, whose theorems
   closed_wins and closed_no_loss say that the claim then holds -- accepts the set of positions.

   Trusted (docs/trusted-base.md): reading the rules, the claim and the root from the JSON
   (json, rules, claim, position below) and turning them into Core's game and board. Not trusted:
   base64, inflate and the traversal that builds the set from proof.moves -- a wrong set is
   refused by Core.closed. *)

exception Error of string   (* exit 2: not a certificate this checker reads *)
exception Invalid of string (* exit 1: the certificate states something false *)

let error fmt = Printf.ksprintf (fun s -> raise (Error s)) fmt
let invalid fmt = Printf.ksprintf (fun s -> raise (Invalid s)) fmt

(* ---- strict JSON ------------------------------------------------------------------------- *)

type json = Null | Bool of bool | Int of int | Num | Str of string | Arr of json list
          | Obj of (string * json) list

let max_depth = 500
let max_int_digits = 20

(* The code point at byte i of s and its length in bytes, if s holds strict UTF-8 there. *)
let utf8_at (s : string) (i : int) : (int * int) option =
  let n = String.length s in
  let byte k = if i + k < n then Char.code s.[i + k] else 0 in
  let cont k = byte k land 0xC0 = 0x80 in
  let c = byte 0 in
  if c < 0x80 then Some (c, 1)
  else if c >= 0xC2 && c < 0xE0 && cont 1 then Some (((c land 0x1F) lsl 6) lor (byte 1 land 0x3F), 2)
  else if c >= 0xE0 && c < 0xF0 && cont 1 && cont 2 then
    let u = ((c land 0x0F) lsl 12) lor ((byte 1 land 0x3F) lsl 6) lor (byte 2 land 0x3F) in
    if u < 0x800 || (u >= 0xD800 && u < 0xE000) then None else Some (u, 3)
  else if c >= 0xF0 && c < 0xF5 && cont 1 && cont 2 && cont 3 then
    let u = ((c land 0x07) lsl 18) lor ((byte 1 land 0x3F) lsl 12) lor ((byte 2 land 0x3F) lsl 6)
            lor (byte 3 land 0x3F) in
    if u < 0x10000 || u > 0x10FFFF then None else Some (u, 4)
  else None

let valid_utf8 s =
  let rec go i = i >= String.length s || (match utf8_at s i with Some (_, k) -> go (i + k) | None -> false) in
  go 0

let parse_json (s : string) : json =
  let n = String.length s and pos = ref 0 in
  let fail what = error "not JSON: %s at offset %d" what !pos in
  let peek () = if !pos < n then s.[!pos] else '\000' in
  let rec blank () = if !pos < n && String.contains " \t\n\r" s.[!pos] then (incr pos; blank ()) in
  let expect c = if peek () = c && !pos < n then incr pos else fail (Printf.sprintf "expected %C" c) in
  let word w v = if !pos + String.length w <= n && String.sub s !pos (String.length w) = w
                 then (pos := !pos + String.length w; v) else fail "unexpected character" in
  let hex4 () =
    if !pos + 4 > n then fail "short \\u escape";
    let v = try int_of_string ("0x" ^ String.sub s !pos 4) with _ -> fail "bad \\u escape" in
    if String.exists (fun c -> not (String.contains "0123456789abcdefABCDEF" c)) (String.sub s !pos 4)
    then fail "bad \\u escape";
    pos := !pos + 4; v in
  let string () =
    expect '"';
    let b = Buffer.create 16 in
    let rec go () =
      if !pos >= n then fail "unterminated string";
      let c = s.[!pos] in
      incr pos;
      if c = '"' then Buffer.contents b
      else if Char.code c < 0x20 then fail "control character in string"
      else if c <> '\\' then (Buffer.add_char b c; go ())
      else begin
        if !pos >= n then fail "unterminated string";
        let e = s.[!pos] in
        incr pos;
        (match e with
         | '"' | '\\' | '/' -> Buffer.add_char b e
         | 'b' -> Buffer.add_char b '\b' | 'f' -> Buffer.add_char b '\012'
         | 'n' -> Buffer.add_char b '\n' | 'r' -> Buffer.add_char b '\r'
         | 't' -> Buffer.add_char b '\t'
         | 'u' ->
           let u = hex4 () in
           let u =
             if u >= 0xD800 && u < 0xDC00 && !pos + 6 <= n && s.[!pos] = '\\' && s.[!pos + 1] = 'u'
             then begin
               let save = !pos in
               pos := !pos + 2;
               let l = hex4 () in
               if l >= 0xDC00 && l < 0xE000 then 0x10000 + ((u - 0xD800) lsl 10) + (l - 0xDC00)
               else (pos := save; u)
             end else u in
           (* a lone surrogate has no UTF-8 form: keep the replacement character *)
           let u = if u >= 0xD800 && u < 0xE000 then 0xFFFD else u in
           Buffer.add_utf_8_uchar b (Uchar.of_int u)
         | _ -> fail "bad escape");
        go ()
      end in
    go () in
  let number () =
    let start = !pos in
    let digits () = let d = !pos in
      while !pos < n && s.[!pos] >= '0' && s.[!pos] <= '9' do incr pos done;
      if !pos = d then fail "bad number" in
    if peek () = '-' then incr pos;
    if peek () = '0' then incr pos else digits ();
    let integral = ref true in
    if peek () = '.' then (incr pos; digits (); integral := false);
    if peek () = 'e' || peek () = 'E' then begin
      incr pos; if peek () = '+' || peek () = '-' then incr pos; digits (); integral := false end;
    let text = String.sub s start (!pos - start) in
    if not !integral then Num
    else if String.length text - (if text.[0] = '-' then 1 else 0) > max_int_digits then
      error "JSON integer with more than %d digits" max_int_digits
    else match int_of_string_opt text with Some i -> Int i | None -> Num (* beyond 62 bits *) in
  let rec value depth =
    if depth > max_depth then error "JSON nested too deeply";
    blank ();
    match peek () with
    | '{' ->
      incr pos; blank ();
      if peek () = '}' then (incr pos; Obj [])
      else
        let rec members acc =
          blank ();
          let k = string () in
          if List.mem_assoc k acc then error "duplicate JSON key %s" k;
          blank (); expect ':';
          let v = value (depth + 1) in
          blank ();
          if peek () = ',' then (incr pos; members ((k, v) :: acc))
          else (expect '}'; Obj (List.rev ((k, v) :: acc))) in
        members []
    | '[' ->
      incr pos; blank ();
      if peek () = ']' then (incr pos; Arr [])
      else
        let rec items acc =
          let v = value (depth + 1) in
          blank ();
          if peek () = ',' then (incr pos; items (v :: acc)) else (expect ']'; Arr (List.rev (v :: acc))) in
        items []
    | '"' -> Str (string ())
    | 't' -> word "true" (Bool true)
    | 'f' -> word "false" (Bool false)
    | 'n' -> word "null" Null
    | '-' | '0' .. '9' -> number ()
    | _ -> fail "unexpected character" in
  if not (valid_utf8 s) then error "not UTF-8";
  if String.trim s = "" then error "empty: the file holds no JSON document";
  let v = value 0 in
  blank ();
  if !pos <> n then fail "extra data";
  v

let type_name = function
  | Null -> "null" | Bool _ -> "boolean" | Int _ -> "integer" | Num -> "number" | Str _ -> "string"
  | Arr _ -> "array" | Obj _ -> "object"

let member where key = function
  | Obj fields -> (match List.assoc_opt key fields with Some v -> v | None -> error "%s.%s is missing" where key)
  | _ -> assert false

let obj where key o = match member where key o with
  | Obj _ as v -> v | v -> error "%s.%s must be object, found %s" where key (type_name v)
let str where key o = match member where key o with
  | Str s -> s | v -> error "%s.%s must be string, found %s" where key (type_name v)
let int_in where key lo hi o = match member where key o with
  | Int i when lo <= i && i <= hi -> i
  | Int i -> error "%s.%s = %d is outside %d..%d" where key i lo hi
  | Num -> error "%s.%s is outside %d..%d" where key lo hi
  | v -> error "%s.%s must be integer, found %s" where key (type_name v)
let word where key words o =
  let w = str where key o in
  if List.mem w words then w else error "%s.%s %S is not one of %s" where key w (String.concat ", " words)

(* ---- base64, zlib (untrusted: they only decode the prover's hints) --------------------------- *)

let base64 (text : string) : string =
  let n = String.length text in
  let value c = match c with
    | 'A' .. 'Z' -> Char.code c - 65 | 'a' .. 'z' -> Char.code c - 71 | '0' .. '9' -> Char.code c + 4
    | '+' -> 62 | '/' -> 63 | _ -> -1 in
  if n mod 4 <> 0 then error "not valid base64";
  let out = Buffer.create (n / 4 * 3) in
  for q = 0 to n / 4 - 1 do
    let c i = text.[4 * q + i] in
    let pad = (if c 3 = '=' then 1 else 0) + (if c 2 = '=' then 1 else 0) in
    if pad > 0 && q <> n / 4 - 1 || (c 2 = '=' && c 3 <> '=') then error "not valid base64";
    let v i = let x = value (c i) in if x < 0 && i < 4 - pad then error "not valid base64" else max x 0 in
    let bits = (v 0 lsl 18) lor (v 1 lsl 12) lor (v 2 lsl 6) lor v 3 in
    Buffer.add_char out (Char.chr (bits lsr 16));
    if pad < 2 then Buffer.add_char out (Char.chr ((bits lsr 8) land 255));
    if pad < 1 then Buffer.add_char out (Char.chr (bits land 255))
  done;
  Buffer.contents out

(* Inflate a zlib stream (RFC 1950/1951), refusing more than [cap] bytes of output. *)
let inflate (data : string) (cap : int) : string =
  let bad () = error "not valid zlib data" in
  let n = String.length data in
  if n < 6 then bad ();
  let cmf = Char.code data.[0] and flg = Char.code data.[1] in
  if cmf land 15 <> 8 || cmf lsr 4 > 7 || (cmf * 256 + flg) mod 31 <> 0 || flg land 32 <> 0 then bad ();
  let pos = ref 2 and bitbuf = ref 0 and bitcnt = ref 0 in
  let out = Buffer.create 1024 in
  let bits k =
    while !bitcnt < k do
      if !pos >= n then bad ();
      bitbuf := !bitbuf lor (Char.code data.[!pos] lsl !bitcnt); incr pos; bitcnt := !bitcnt + 8
    done;
    let v = !bitbuf land ((1 lsl k) - 1) in
    bitbuf := !bitbuf lsr k; bitcnt := !bitcnt - k; v in
  let emit c = if Buffer.length out >= cap then error "holds more bytes than declared"; Buffer.add_char out c in
  (* a canonical Huffman code as (counts per length, symbols by code) *)
  let build lengths =
    let count = Array.make 16 0 in
    Array.iter (fun l -> count.(l) <- count.(l) + 1) lengths;
    count.(0) <- 0;
    let offs = Array.make 16 0 in
    for l = 1 to 14 do offs.(l + 1) <- offs.(l) + count.(l) done;
    let symbol = Array.make (Array.length lengths) 0 in
    Array.iteri (fun s l -> if l > 0 then (symbol.(offs.(l)) <- s; offs.(l) <- offs.(l) + 1)) lengths;
    (count, symbol) in
  let decode (count, symbol) =
    let rec go len code first index =
      if len > 15 then bad ();
      let code = code lor bits 1 in
      let c = count.(len) in
      if code - c < first then symbol.(index + code - first)
      else go (len + 1) (code lsl 1) ((first + c) lsl 1) (index + c) in
    go 1 0 0 0 in
  let lbase = [|3;4;5;6;7;8;9;10;11;13;15;17;19;23;27;31;35;43;51;59;67;83;99;115;131;163;195;227;258|]
  and lext = [|0;0;0;0;0;0;0;0;1;1;1;1;2;2;2;2;3;3;3;3;4;4;4;4;5;5;5;5;0|]
  and dbase = [|1;2;3;4;5;7;9;13;17;25;33;49;65;97;129;193;257;385;513;769;1025;1537;2049;3073;
                4097;6145;8193;12289;16385;24577|]
  and dext = [|0;0;0;0;1;1;2;2;3;3;4;4;5;5;6;6;7;7;8;8;9;9;10;10;11;11;12;12;13;13|] in
  let codes lit dist =
    let rec go () =
      let sym = decode lit in
      if sym < 256 then (emit (Char.chr sym); go ())
      else if sym > 256 then begin
        let sym = sym - 257 in
        if sym >= 29 then bad ();
        let len = lbase.(sym) + bits lext.(sym) in
        let d = decode dist in
        if d >= 30 then bad ();
        let d = dbase.(d) + bits dext.(d) in
        if d > Buffer.length out then bad ();
        for _ = 1 to len do emit (Buffer.nth out (Buffer.length out - d)) done;
        go ()
      end in
    go () in
  let fixed = lazy (build (Array.init 288 (fun i -> if i < 144 then 8 else if i < 256 then 9
                                                    else if i < 280 then 7 else 8)),
                    build (Array.make 30 5)) in
  let order = [|16;17;18;0;8;7;9;6;10;5;11;4;12;3;13;2;14;1;15|] in
  let rec blocks () =
    let last = bits 1 in
    (match bits 2 with
     | 0 ->
       bitbuf := 0; bitcnt := 0;
       if !pos + 4 > n then bad ();
       let len = Char.code data.[!pos] lor (Char.code data.[!pos + 1] lsl 8) in
       let nlen = Char.code data.[!pos + 2] lor (Char.code data.[!pos + 3] lsl 8) in
       if len <> nlen lxor 0xFFFF || !pos + 4 + len > n then bad ();
       String.iter emit (String.sub data (!pos + 4) len);
       pos := !pos + 4 + len
     | 1 -> let lit, dist = Lazy.force fixed in codes lit dist
     | 2 ->
       let nlen = bits 5 + 257 in let ndist = bits 5 + 1 in let ncode = bits 4 + 4 in
       if nlen > 286 || ndist > 30 then bad ();
       let lengths = Array.make 19 0 in
       for i = 0 to ncode - 1 do lengths.(order.(i)) <- bits 3 done;
       let lencode = build lengths in
       let all = Array.make (nlen + ndist) 0 in
       let i = ref 0 in
       while !i < nlen + ndist do
         let sym = decode lencode in
         if sym < 16 then (all.(!i) <- sym; incr i)
         else begin
           let prev, rep = match sym with
             | 16 -> if !i = 0 then bad (); all.(!i - 1), 3 + bits 2
             | 17 -> 0, 3 + bits 3
             | _ -> 0, 11 + bits 7 in
           if !i + rep > nlen + ndist then bad ();
           for _ = 1 to rep do all.(!i) <- prev; incr i done
         end
       done;
       if all.(256) = 0 then bad ();
       codes (build (Array.sub all 0 nlen)) (build (Array.sub all nlen ndist))
     | _ -> bad ());
    if last = 0 then blocks () in
  blocks ();
  bitbuf := 0; bitcnt := 0;
  if !pos + 4 <> n then bad ();
  let s = Buffer.contents out in
  let a = ref 1 and b = ref 0 in
  String.iter (fun c -> a := (!a + Char.code c) mod 65521; b := (!b + !a) mod 65521) s;
  let stored = (Char.code data.[!pos] lsl 24) lor (Char.code data.[!pos + 1] lsl 16)
               lor (Char.code data.[!pos + 2] lsl 8) lor Char.code data.[!pos + 3] in
  if stored <> (!b lsl 16) lor !a then bad ();
  s

(* ---- sha256 of the rules (trusted: it names the game on the verdict line) -------------------- *)

let sha256 (msg : string) : string =
  let k = [|
    0x428a2f98;0x71374491;0xb5c0fbcf;0xe9b5dba5;0x3956c25b;0x59f111f1;0x923f82a4;0xab1c5ed5;
    0xd807aa98;0x12835b01;0x243185be;0x550c7dc3;0x72be5d74;0x80deb1fe;0x9bdc06a7;0xc19bf174;
    0xe49b69c1;0xefbe4786;0x0fc19dc6;0x240ca1cc;0x2de92c6f;0x4a7484aa;0x5cb0a9dc;0x76f988da;
    0x983e5152;0xa831c66d;0xb00327c8;0xbf597fc7;0xc6e00bf3;0xd5a79147;0x06ca6351;0x14292967;
    0x27b70a85;0x2e1b2138;0x4d2c6dfc;0x53380d13;0x650a7354;0x766a0abb;0x81c2c92e;0x92722c85;
    0xa2bfe8a1;0xa81a664b;0xc24b8b70;0xc76c51a3;0xd192e819;0xd6990624;0xf40e3585;0x106aa070;
    0x19a4c116;0x1e376c08;0x2748774c;0x34b0bcb5;0x391c0cb3;0x4ed8aa4a;0x5b9cca4f;0x682e6ff3;
    0x748f82ee;0x78a5636f;0x84c87814;0x8cc70208;0x90befffa;0xa4506ceb;0xbef9a3f7;0xc67178f2 |] in
  let h = [| 0x6a09e667;0xbb67ae85;0x3c6ef372;0xa54ff53a;0x510e527f;0x9b05688c;0x1f83d9ab;0x5be0cd19 |] in
  let m32 = 0xFFFFFFFF in
  let rotr x r = ((x lsr r) lor (x lsl (32 - r))) land m32 in
  let len = String.length msg in
  let padded = Bytes.make ((len + 9 + 63) / 64 * 64) '\000' in
  Bytes.blit_string msg 0 padded 0 len;
  Bytes.set padded len '\x80';
  let total = Bytes.length padded in
  for i = 0 to 7 do Bytes.set padded (total - 1 - i) (Char.chr (((len * 8) lsr (8 * i)) land 255)) done;
  let w = Array.make 64 0 in
  for block = 0 to total / 64 - 1 do
    for t = 0 to 15 do
      w.(t) <- Int32.to_int (Bytes.get_int32_be padded (64 * block + 4 * t)) land m32
    done;
    for t = 16 to 63 do
      let s0 = rotr w.(t - 15) 7 lxor rotr w.(t - 15) 18 lxor (w.(t - 15) lsr 3) in
      let s1 = rotr w.(t - 2) 17 lxor rotr w.(t - 2) 19 lxor (w.(t - 2) lsr 10) in
      w.(t) <- (w.(t - 16) + s0 + w.(t - 7) + s1) land m32
    done;
    let v = Array.copy h in
    for t = 0 to 63 do
      let s1 = rotr v.(4) 6 lxor rotr v.(4) 11 lxor rotr v.(4) 25 in
      let ch = (v.(4) land v.(5)) lxor ((lnot v.(4)) land m32 land v.(6)) in
      let t1 = (v.(7) + s1 + ch + k.(t) + w.(t)) land m32 in
      let s0 = rotr v.(0) 2 lxor rotr v.(0) 13 lxor rotr v.(0) 22 in
      let maj = (v.(0) land v.(1)) lxor (v.(0) land v.(2)) lxor (v.(1) land v.(2)) in
      let t2 = (s0 + maj) land m32 in
      v.(7) <- v.(6); v.(6) <- v.(5); v.(5) <- v.(4); v.(4) <- (v.(3) + t1) land m32;
      v.(3) <- v.(2); v.(2) <- v.(1); v.(1) <- v.(0); v.(0) <- (t1 + t2) land m32
    done;
    Array.iteri (fun i x -> h.(i) <- (h.(i) + x) land m32) v
  done;
  String.concat "" (Array.to_list (Array.map (Printf.sprintf "%08x") h))

(* ---- the rules, the claim, the root (trusted: they state what is proved) ---------------------- *)

let mark_rules = ["own"; "either"; "x-only"]
let goals = ["first-line-wins"; "first-line-loses"; "most-lines"]
let rules_keys = ["cols"; "family"; "goal"; "lines"; "marks"; "name"; "rows"]
let max_side = 16

type rules = { rows : int; cols : int; lines : int list list; marks : string; goal : string }

let rec nat_of_int n = if n <= 0 then Core.O else Core.S (nat_of_int (n - 1))

let parse_rules (raw : json) : rules =
  let keys = match raw with Obj f -> List.sort compare (List.map fst f) | _ -> [] in
  if keys <> rules_keys then error "rules must have exactly the keys %s" (String.concat ", " rules_keys);
  let rows = int_in "rules" "rows" 1 max_side raw and cols = int_in "rules" "cols" 1 max_side raw in
  let marks = word "rules" "marks" mark_rules raw and goal = word "rules" "goal" goals raw in
  if goal = "most-lines" && marks <> "own" then
    error "rules: goal most-lines needs marks 'own' (a line must belong to a player)";
  let lines = match member "rules" "lines" raw with
    | Arr [] -> error "rules.lines is empty"
    | Arr lines -> lines
    | v -> error "rules.lines must be array, found %s" (type_name v) in
  let line index = function
    | Arr (_ :: _ as cells) ->
      List.map (function
          | Int c when 0 <= c && c < rows * cols -> c
          | Int _ -> error "rules.lines[%d] has a cell outside 0..%d" index (rows * cols - 1)
          | _ -> error "rules.lines[%d] must be a non-empty array of integers" index) cells
    | _ -> error "rules.lines[%d] must be a non-empty array of integers" index in
  let lines = List.mapi line lines in
  let rec ascending = function a :: (b :: _ as rest) -> a < b && ascending rest | _ -> true in
  List.iteri (fun i l ->
      if not (ascending l) then error "rules.lines[%d] is not strictly ascending (rules must be canonical)" i;
      if i > 0 && compare (List.nth lines (i - 1)) l >= 0 then
        error "rules.lines[%d] does not follow rules.lines[%d] in sorted order without repeats (rules must be canonical)" i (i - 1))
    lines;
  { rows; cols; lines; marks; goal }

(* The canonical JSON of the rules without their name (docs/certificate-format.md, Identity). *)
let canonical (r : rules) : string =
  let ints l = "[" ^ String.concat "," (List.map string_of_int l) ^ "]" in
  Printf.sprintf {|{"cols":%d,"family":"positional","goal":"%s","lines":[%s],"marks":"%s","rows":%d}|}
    r.cols r.goal (String.concat "," (List.map ints r.lines)) r.marks r.rows

let game_of (r : rules) : Core.game =
  { Core.lines = List.map (List.map nat_of_int) r.lines;
    marks = (match r.marks with "own" -> Core.Own | "either" -> Core.Either | _ -> Core.XOnly);
    goal_of = (match r.goal with "first-line-wins" -> Core.FirstLineWins
                                 | "first-line-loses" -> Core.FirstLineLoses | _ -> Core.MostLines) }

let counted n one many =
  let s = string_of_int n in
  let len = String.length s in
  let b = Buffer.create (len + len / 3) in
  String.iteri (fun i c -> if i > 0 && (len - i) mod 3 = 0 then Buffer.add_char b ','; Buffer.add_char b c) s;
  Buffer.contents b ^ " " ^ (if n = 1 then one else many)

let describe (r : rules) : string =
  let lengths = List.sort_uniq compare (List.map List.length r.lines) in
  let lo = List.hd lengths and hi = List.nth lengths (List.length lengths - 1) in
  let length = if lo = hi then string_of_int lo else Printf.sprintf "%d-%d" lo hi in
  Printf.sprintf "%dx%d board, %s of %s, marks %s, %s" r.rows r.cols
    (counted (List.length r.lines) "line" "lines") length r.marks r.goal

let empty_board (r : rules) : Core.board = List.init (r.rows * r.cols) (fun _ -> Core.Empty)

(* A position: rows of X, O and '.' joined by '/', spaces ignored (checker/positional.py). *)
let parse_position (r : rules) (text : string) : Core.board =
  let shown = String.sub text 0 (min 120 (String.length text)) in
  let compact = String.concat "" (String.split_on_char ' ' text) in
  let rows = String.split_on_char '/' compact in
  if List.length rows <> r.rows
  || List.exists (fun row -> String.length row <> r.cols || String.exists (fun c -> not (String.contains ".XO" c)) row) rows
  then error "position %S is not %d rows of %d X, O or '.'" shown r.rows r.cols;
  let cells = List.concat_map (fun row -> List.init r.cols (fun i ->
      match row.[i] with 'X' -> Core.Cross | 'O' -> Core.Nought | _ -> Core.Empty)) rows in
  let count m = List.length (List.filter (( = ) m) cells) in
  if r.marks = "own" && not (List.mem (count Core.Cross - count Core.Nought) [0; 1]) then
    error "position %S: X must have as many marks as O or one more" shown;
  if r.marks = "x-only" && count Core.Nought > 0 then error "position %S: only X is placed in this game" shown;
  cells

let draw_board (r : rules) (b : Core.board) : string =
  let marks = Array.of_list (List.map (function Core.Empty -> "." | Core.Cross -> "X" | Core.Nought -> "O") b) in
  String.concat " / " (List.init r.rows (fun row ->
      String.concat " " (List.init r.cols (fun col -> marks.(row * r.cols + col)))))

(* Python's ascii() of a UTF-8 string's first 80 code points: the name on the verdict line. *)
let ascii_name (s : string) : string =
  let rec points i acc k =
    if i >= String.length s || k = 80 then List.rev acc
    else match utf8_at s i with
      | Some (u, len) -> points (i + len) (u :: acc) (k + 1)
      | None -> points (i + 1) (0xFFFD :: acc) (k + 1) in
  let cps = points 0 [] 0 in
  let quote = if List.mem 39 cps && not (List.mem 34 cps) then '"' else '\'' in
  let b = Buffer.create (String.length s + 2) in
  Buffer.add_char b quote;
  List.iter (fun c ->
      if c = Char.code quote || c = 92 then (Buffer.add_char b '\\'; Buffer.add_char b (Char.chr c))
      else if c = 9 then Buffer.add_string b "\\t" else if c = 10 then Buffer.add_string b "\\n"
      else if c = 13 then Buffer.add_string b "\\r"
      else if c >= 32 && c < 127 then Buffer.add_char b (Char.chr c)
      else if c < 256 then Buffer.add_string b (Printf.sprintf "\\x%02x" c)
      else if c < 0x10000 then Buffer.add_string b (Printf.sprintf "\\u%04x" c)
      else Buffer.add_string b (Printf.sprintf "\\U%08x" c)) cps;
  Buffer.add_char b quote;
  Buffer.contents b

(* ---- the traversal (untrusted: it only builds the set Core.closed then checks) ---------------- *)

let words = function 1 -> "win" | 0 -> "draw" | _ -> "loss"

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
      if !count > positions then invalid "the strategy reaches more than proof.positions = %d positions" positions;
      let choice = ref 0 in
      (match Core.children game b with
       | [] ->
         let score = match Core.result game b with
           | Some (Core.Won p) -> if p = prover then 1 else -1 | _ -> 0 in
         if score < (if no_loss then 0 else 1) then
           invalid "play reaches the end %s, a %s for player %d" (draw_board r b) (words score) player
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

(* The work budget and the game asked for (the command line's options). *)
type limits = { max_bytes : int; max_states : int; max_work : int; sha : string option }

(* ---- the table kind (untrusted: it builds the label map Core.labels_closed then checks) -------- *)

(* Boards of at most 16 cells: a state is its code, sum(mark * 3^cell), and every child's code is
   larger than its parent's, so scanning codes upwards meets parents first (checker/table.py). *)

let max_cells = 16
let value_word = function 1 -> "win" | 0 -> "draw" | _ -> "loss"
let signed byte = if byte > 127 then byte - 256 else byte

let board_of_code cells code : Core.board =
  let rec go i c = if i = cells then [] else
      (match c mod 3 with 0 -> Core.Empty | 1 -> Core.Cross | _ -> Core.Nought) :: go (i + 1) (c / 3) in
  go 0 code

let state r code = Printf.sprintf "state %d (%s)" code (draw_board r (board_of_code (r.rows * r.cols) code))

let marks_of r player = match r.marks with
  | "either" -> [1; 2] | "x-only" -> [1] | _ -> [player]

(* The child codes of a non-terminal state, in the canonical order. *)
let child_codes r powers code mover =
  List.concat (List.init (r.rows * r.cols) (fun cell ->
      if code / powers.(cell) mod 3 <> 0 then []
      else List.map (fun m -> code + m * powers.(cell)) (marks_of r mover)))

let count_lines r board mark =
  let cells = Array.of_list board in
  List.length (List.filter (fun l -> List.for_all (fun c -> cells.(c) = mark) l) r.lines)

let check_table limits r doc : string =
  let cells = r.rows * r.cols in
  if cells > max_cells then error "the table kind covers boards of at most %d cells, not %d" max_cells cells;
  let powers = Array.init (cells + 1) (fun i -> int_of_float (3. ** float_of_int i)) in
  let size = powers.(cells) in
  let claim = obj "certificate" "claim" doc in
  let first_moves = match member "claim" "first_moves" claim with
    | Arr l -> List.filteri (fun i _ -> i <= 2 * cells) l
    | v -> error "claim.first_moves must be array, found %s" (type_name v) in
  let first_moves = List.mapi (fun i m ->
      let where = Printf.sprintf "claim.first_moves[%d]" i in
      match m with
      | Obj _ -> (int_in where "cell" min_int max_int m, int_in where "mark" min_int max_int m, str where "value" m)
      | _ -> error "%s must be an object" where) first_moves in
  let table = obj "certificate" "table" doc in
  let states = int_in "table" "states" 1 size table in
  let work = (states + 2 * powers.(cells - cells / 2)) * List.length r.lines in
  if states > limits.max_states || work > limits.max_work then
    error "table.states = %d and states x lines = %d: over the work budget (%d states, %d states x lines); to check a large game, raise it: --max-states %d --max-work %d"
      states work limits.max_states limits.max_work states work;
  let unpack where key count o =
    let packed = try base64 (str where key o) with Error _ -> error "%s.%s is not valid base64" where key in
    let raw = try inflate packed count with Error e -> error "%s.%s: %s" where key e in
    if String.length raw <> count then error "%s.%s holds %d bytes, expected %d" where key (String.length raw) count;
    raw in
  let labels = unpack "table" "labels" states table in
  let most_lines = r.goal = "most-lines" in
  let margins_given = match member "table" "margins" table with
    | Null -> false | Str _ -> true | v -> error "table.margins must be string or null, found %s" (type_name v) in
  if margins_given <> most_lines then
    invalid "table.margins must be %s for goal %s" (if most_lines then "present" else "null") r.goal;
  let margins = if most_lines then unpack "table" "margins" states table else "" in
  let strategies = match member "certificate" "strategies" doc with
    | Arr l -> List.filteri (fun i _ -> i < 3) l
    | v -> error "certificate.strategies must be array, found %s" (type_name v) in
  let strategies = List.mapi (fun i s ->
      let where = Printf.sprintf "strategies[%d]" i in
      (match s with Obj _ -> () | _ -> error "%s must be an object" where);
      let entries = int_in where "entries" 0 states s in
      let player = int_in where "player" 1 2 s in
      let guarantees = word where "guarantees" ["win"; "no-loss"] s in
      (player, guarantees, unpack where "moves" entries s)) strategies in
  let root_value = str "claim" "root_value" claim in
  let root_margin = match member "claim" "root_margin" claim with
    | Null -> None | Int i -> Some i | v -> error "claim.root_margin must be integer or null, found %s" (type_name v) in
  (* ranges *)
  String.iteri (fun i c -> let b = Char.code c in
                 if b >= 192 || b mod 64 > cells then
                   invalid "table.labels[%d] = %d is not a label (value -1..1, distance 0..%d)" i b cells) labels;
  let lines = List.length r.lines in
  String.iteri (fun i c -> if abs (signed (Char.code c)) > lines then
                   invalid "table.margins[%d] is outside -%d..%d" i lines lines) margins;
  List.iteri (fun i (player, _, moves) ->
      String.iteri (fun j c -> let b = Char.code c in
                     if not (List.mem (b / 16) (marks_of r player)) || b mod 16 >= cells then
                       invalid "strategies[%d].moves[%d] = %d is not a move of player %d" i j b player) moves) strategies;
  if not (List.mem root_value ["win"; "draw"; "loss"]) then
    invalid "claim.root_value %s is not win, draw or loss" (ascii_name root_value);
  let found = List.sort compare (List.map (fun (p, g, _) -> (p, g)) strategies) in
  let expected = match root_value with "win" -> [(1, "win")] | "loss" -> [(2, "win")]
                                      | _ -> [(1, "no-loss"); (2, "no-loss")] in
  let pairs l = "[" ^ String.concat ", " (List.map (fun (p, g) -> Printf.sprintf "(%d, '%s')" p g) l) ^ "]" in
  if found <> expected then
    invalid "root value %s: strategies (player, guarantees) expected %s, found %s" root_value (pairs expected)
      (let s = pairs found in String.sub s 0 (min 120 (String.length s)));
  (* reach: ascending codes; terminal labels as they come *)
  let game = game_of r in
  let reach = Bytes.make size '\000' and label_at = Bytes.make size '\000' in
  let margin_at = Array.make (if most_lines then size else 0) 0 in
  Bytes.set reach 0 '\001';
  let rank = ref 0 and edges = ref 0 and codes = ref [] in
  let mover_of code = if List.length (List.filter (( <> ) Core.Empty) (board_of_code cells code)) mod 2 = 0 then 1 else 2 in
  for code = 0 to size - 1 do
    if Bytes.get reach code <> '\000' then begin
      if !rank = states then
        invalid "table.states is %d, but more states are reachable (first unlisted: %s)" states (state r code);
      let board = board_of_code cells code in
      let mover = mover_of code in
      let stored = Char.code labels.[!rank] in
      (match Core.result game board with
       | None ->
         if stored mod 64 = 0 then invalid "non-terminal %s: distance expected at least 1, found 0" (state r code);
         let children = child_codes r powers code mover in
         List.iter (fun c -> Bytes.set reach c '\001') children;
         edges := !edges + List.length children
       | Some outcome ->
         Bytes.set reach code '\002';
         let v = match outcome with Core.Drawn -> 0
                                  | Core.Won p -> if (p = Core.P1) = (mover = 1) then 1 else -1 in
         let want = 64 * (v + 1) in
         if stored <> want then
           invalid "terminal %s: %s" (state r code)
             (if want / 64 <> stored / 64 then Printf.sprintf "value expected %d, found %d" v (stored / 64 - 1)
              else Printf.sprintf "distance expected 0, found %d" (stored mod 64));
         Bytes.set label_at code (Char.chr want);
         if most_lines then begin
           let x = count_lines r board Core.Cross and o = count_lines r board Core.Nought in
           let margin = if mover = 1 then x - o else o - x in
           if signed (Char.code margins.[!rank]) <> margin then
             invalid "terminal %s: margin expected %d, found %d" (state r code) margin (signed (Char.code margins.[!rank]));
           margin_at.(code) <- margin
         end);
      codes := code :: !codes;
      incr rank
    end
  done;
  if !rank <> states then invalid "table.states is %d, but %d states are reachable" states !rank;
  (* labels: descending codes, each non-terminal label the minimax of its children's *)
  let rank = ref states in
  List.iter (fun code ->
      decr rank;
      if Bytes.get reach code = '\001' then begin
        let kids = List.map (fun c -> Char.code (Bytes.get label_at c)) (child_codes r powers code (mover_of code)) in
        let values = List.map (fun l -> l / 64 - 1) kids in
        let best = List.fold_left (fun a v -> max a (- v)) (-1) values in
        let dists wanted = List.filter_map (fun l -> if l / 64 - 1 = wanted then Some (l mod 64) else None) kids in
        let distance = match best with
          | 1 -> 1 + List.fold_left min max_int (dists (-1))
          | -1 -> 1 + List.fold_left max 0 (List.map (fun l -> l mod 64) kids)
          | _ -> 1 + List.fold_left max 0 (dists 0) in
        let want = 64 * (best + 1) + distance and stored = Char.code labels.[!rank] in
        if stored <> want then
          invalid "non-terminal %s: %s" (state r code)
            (if want / 64 <> stored / 64 then Printf.sprintf "value expected %d, found %d" best (stored / 64 - 1)
             else Printf.sprintf "distance expected %d, found %d" distance (stored mod 64));
        Bytes.set label_at code (Char.chr want);
        if most_lines then begin
          let margin = List.fold_left (fun a c -> max a (- margin_at.(c))) min_int
              (child_codes r powers code (mover_of code)) in
          if signed (Char.code margins.[!rank]) <> margin then
            invalid "non-terminal %s: margin expected %d, found %d" (state r code) margin (signed (Char.code margins.[!rank]));
          margin_at.(code) <- margin
        end
      end) !codes;
  (* the verified check: every label's value is the minimax of its children's (Table.labels_sound) *)
  let value_of_label l = match l / 64 with 0 -> Core.Loss | 1 -> Core.Draw | _ -> Core.Win in
  let map = List.fold_left (fun m code ->
      let board = board_of_code cells code in
      Core.M.add (Core.key_of board) (board, value_of_label (Char.code (Bytes.get label_at code))) m)
      Core.M.empty !codes in
  if not (Core.labels_closed game map) then invalid "the verified minimax check refuses the labels";
  let proved code = match Core.value_of map (board_of_code cells code) with
    | Some Core.Win -> 1 | Some Core.Draw -> 0 | Some Core.Loss -> -1
    | None -> invalid "%s has no label" (state r code) in
  (* the claim, from the proved values *)
  let root = value_word (proved 0) in
  if root_value <> root then invalid "claim.root_value expected '%s', found %s" root (ascii_name root_value);
  let margin = if most_lines then Some (signed (Char.code margins.[0])) else None in
  let show = function None -> "None" | Some m -> string_of_int m in
  if root_margin <> margin then invalid "claim.root_margin expected %s, found %s" (show margin) (show root_margin);
  let expected = List.concat (List.init cells (fun cell ->
      List.map (fun m -> (cell, m, value_word (- proved (m * powers.(cell))))) (marks_of r 1))) in
  let triple (c, m, v) = Printf.sprintf "(%d, %d, %s)" c m (ascii_name v) in
  let rec compare_moves i = function
    | [], [] -> ()
    | w :: ws, g :: gs when w = g -> compare_moves (i + 1) (ws, gs)
    | ws, gs ->
      let one = function [] -> "no entry" | t :: _ -> triple t in
      let got = match gs with [] -> "'no entry'" | t :: _ -> triple t in (* Python's ascii() of either *)
      invalid "claim.first_moves[%d] (cell, mark, value) expected %s, found %s" i (one ws)
        (String.sub got 0 (min 80 (String.length got))) in
  compare_moves 0 (expected, first_moves);
  (* the strategies: the verified closure check on the positions each reaches *)
  List.iteri (fun index (player, guarantees, moves) ->
      let where = Printf.sprintf "strategies[%d] (player %d, %s)" index player guarantees in
      let worst = if guarantees = "win" then 1 else 0 in
      let seen = Bytes.make size '\000' in
      Bytes.set seen 0 '\001';
      let used = ref 0 and set = ref Core.M.empty in
      for code = 0 to size - 1 do
        if Bytes.get seen code <> '\000' then begin
          let mover = mover_of code and board = board_of_code cells code in
          let choice = ref 0 in
          if Bytes.get reach code = '\002' then begin
            let v = Char.code (Bytes.get label_at code) / 64 - 1 in
            let result = if mover = player then v else - v in
            if result < worst then
              invalid "%s: play reaches terminal %s, a %s for player %d" where (state r code) (value_word result) player
          end else if mover = player then begin
            if !used = String.length moves then
              invalid "%s: no move for reachable %s (%d moves listed)" where (state r code) !used;
            let b = Char.code moves.[!used] in
            let mark = b / 16 and cell = b mod 16 in
            if code / powers.(cell) mod 3 <> 0 then
              invalid "%s: moves[%d] plays on the occupied cell %d in %s" where !used cell (state r code);
            let child = code + mark * powers.(cell) in
            Bytes.set seen child '\001';
            let rec index_of i = function
              | [] -> 0 | c :: rest -> if c = child then i else index_of (i + 1) rest in
            choice := index_of 0 (child_codes r powers code mover);
            incr used
          end else
            List.iter (fun c -> Bytes.set seen c '\001') (child_codes r powers code mover);
          set := Core.M.add (Core.key_of board) (board, nat_of_int !choice) !set
        end
      done;
      if !used <> String.length moves then
        invalid "%s: %d moves listed, but the strategy reaches only %d turns of player %d" where
          (String.length moves) !used player;
      if not (Core.closed game (if player = 1 then Core.P1 else Core.P2) (guarantees = "no-loss") !set
                (empty_board r)) then
        invalid "%s: the verified closure check refuses the strategy" where) strategies;
  let margin_text = match root_margin with None -> "" | Some m -> Printf.sprintf " margin %d" m in
  Printf.sprintf "%s, %s, root %s%s, %s checked" (counted states "state" "states") (counted !edges "edge" "edges")
    root_value margin_text (counted (List.length strategies) "strategy" "strategies")

(* ---- the certificate ------------------------------------------------------------------------ *)


let read_file path max_bytes =
  let ic = try open_in_bin path with Sys_error e -> error "cannot read %s: %s" path e in
  Fun.protect ~finally:(fun () -> close_in_noerr ic) (fun () ->
      let size = in_channel_length ic in
      if size > max_bytes then error "%s has %d bytes, more than the limit %d (--max-bytes)" path size max_bytes;
      really_input_string ic size)

(* The strategy kind: the summary of a VALID certificate, or Invalid / Error. *)
let check_strategy limits r doc : string =
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
  let packed = try base64 (str "proof" "moves" proof) with Error _ -> error "proof.moves is not valid base64" in
  let moves = try inflate packed turns with Error e -> error "proof.moves: %s" e in
  if String.length moves <> turns then
    error "proof.moves holds %d bytes, expected %d" (String.length moves) turns;
  let root = match root_text with None -> empty_board r | Some t -> parse_position r t in
  let game = game_of r and prover = if player = 1 then Core.P1 else Core.P2 in
  let no_loss = result = "no-loss" in
  let set = traverse r game player no_loss root positions turns moves in
  (* The one verdict that matters: Checker.closed_wins / closed_no_loss prove the claim from it. *)
  if not (Core.closed game prover no_loss set root) then
    invalid "the closure check refuses the set of positions the traversal built";
  let where = match root_text with None -> "the start"
                                 | Some t -> "position " ^ ascii_name (String.sub t 0 (min 120 (String.length t))) in
  Printf.sprintf "player %d %s from %s: %s, %s of player %d checked"
    player (if no_loss then "does not lose" else "wins") where
    (counted positions "position" "positions") (counted turns "move" "moves") player

(* What the Rocq theorems cover, appended to a VALID line. *)
let proved = function
  | "table" -> "; minimax and closure checks proved in Rocq"
  | _ -> "; closure check proved in Rocq"

let check (limits : limits) (path : string) : string =
  let doc = parse_json (read_file path limits.max_bytes) in
  (match doc with Obj _ -> () | v -> error "a certificate is a JSON object, found %s" (type_name v));
  (match doc with Obj f when List.assoc_opt "format" f = Some (Str "certify-certificate") -> ()
                | _ -> error "format must be 'certify-certificate'");
  let version = int_in "certificate" "version" min_int max_int doc in
  if version <> 2 then
    error "certificate version %d is not readable: this checker reads version 2 (regenerate the file with `certify solve`)" version;
  let kind = word "certificate" "kind" ["table"; "strategy"] doc in
  let raw_rules = obj "certificate" "rules" doc in
  let family = word "rules" "family" ["positional"; "uttt"] raw_rules in
  let name = str "rules" "name" raw_rules in
  let stated_sha = str "certificate" "rules_sha256" doc in
  ignore (obj "certificate" "provenance" doc);
  if family <> "positional" then
    error "family %s: the verified checker reads the positional family only (check it with python -m checker)" family;
  let r = parse_rules raw_rules in
  let sha = sha256 (canonical r) in
  let head = Printf.sprintf "%s %s rules sha256 %s name %s" kind (describe r) (String.sub sha 0 16) (ascii_name name) in
  try
    if stated_sha <> sha then invalid "rules_sha256 expected %s, found %s" sha (ascii_name stated_sha);
    (match limits.sha with
     | Some want when not (String.starts_with ~prefix:(String.lowercase_ascii want) sha) ->
       invalid "not the game asked for: these rules have sha256 %s, the game asked for has sha256 %s" sha want
     | _ -> ());
    let summary = if kind = "table" then check_table limits r doc else check_strategy limits r doc in
    Printf.sprintf "VALID %s: %s%s" head summary (proved kind)
  with Invalid why -> raise (Invalid (Printf.sprintf "INVALID %s: %s" head why))

let usage = "usage: verified/check CERT.json [--rules-sha256 HEX] [--max-states N] [--max-work N] [--max-bytes N]"

let () =
  let rec options args limits path = match args with
    | [] -> (limits, path)
    | ("-h" | "--help") :: _ -> print_endline usage; exit 0
    | "--rules-sha256" :: hex :: rest ->
      if String.length hex < 16 || String.length hex > 64
      || String.exists (fun c -> not (String.contains "0123456789abcdefABCDEF" c)) hex
      then error "--rules-sha256 must be 16 to 64 hex digits";
      options rest { limits with sha = Some hex } path
    | ("--max-states" | "--max-bytes" | "--max-work" as o) :: n :: rest ->
      let n = match int_of_string_opt n with Some n when n >= 0 -> n
                                           | _ -> error "%s must be a non-negative integer" o in
      options rest (match o with "--max-states" -> { limits with max_states = n }
                                | "--max-work" -> { limits with max_work = n }
                                | _ -> { limits with max_bytes = n }) path
    | a :: rest when path = None && (String.length a = 0 || a.[0] <> '-') -> options rest limits (Some a)
    | a :: _ -> error "unexpected argument %s (%s)" a usage in
  let code, line =
    try
      let limits, path = options (List.tl (Array.to_list Sys.argv))
          { max_bytes = 512 * 1024 * 1024; max_states = 1_000_000; max_work = 100_000_000; sha = None } None in
      let path = match path with Some p -> p | None -> error "%s" usage in
      (0, check limits path)
    with
    | Invalid line -> (1, line)
    | Error why -> (2, "ERROR: " ^ why)
    | Stack_overflow -> (2, "ERROR: input nested too deeply")
    | Out_of_memory -> (2, "ERROR: out of memory while checking")
    | e -> (2, "ERROR: internal checker failure (" ^ Printexc.to_string e ^ ")") in
  print_string "";
  output_string (if code = 2 then stderr else stdout) (line ^ "\n");
  exit code
