(* Reading a certificate (trusted): the exceptions that make a verdict, the work budget, the file,
   strict JSON and typed fields -- as checker/load.py. *)

exception Error of string   (* exit 2: not a certificate this checker reads *)
exception Invalid of string (* exit 1: the certificate states something false *)
exception Unread of string  (* exit 3: a certificate this checker does not read, which the stdlib
                               checker reads (docs/verified-checker.md lists them) *)

let error fmt = Printf.ksprintf (fun s -> raise (Error s)) fmt
let invalid fmt = Printf.ksprintf (fun s -> raise (Invalid s)) fmt
let unread fmt = Printf.ksprintf (fun s -> raise (Unread s)) fmt

(* Progress on stderr, over one line, when it is a terminal: "what: N, T s" (a long check shows
   it is working; the verdict line then replaces it). *)
let progress =
  let start = Unix.gettimeofday () in
  fun what count ->
    if Unix.isatty Unix.stderr then
      Printf.eprintf "\r%s: %d, %.0f s   %!" what count (Unix.gettimeofday () -. start)

(* Clear the progress line before the verdict. *)
let progress_done () = if Unix.isatty Unix.stderr then prerr_string "\r\027[K"

(* The work budget and the game asked for (the command line's options). *)
(* A whole number as the stdlib checker prints it in its ERROR lines ({n:,}): digits grouped by
   commas; [grouped_text] for a number's decimal text (a sign, then digits). *)
let grouped_text (t : string) : string =
  let sign, digits = if t <> "" && t.[0] = '-' then ("-", String.sub t 1 (String.length t - 1)) else ("", t) in
  let len = String.length digits in
  let b = Buffer.create (len + len / 3 + 1) in
  Buffer.add_string b sign;
  String.iteri (fun i c -> if i > 0 && (len - i) mod 3 = 0 then Buffer.add_char b ','; Buffer.add_char b c) digits;
  Buffer.contents b

let grouped n = grouped_text (string_of_int n)

type limits = { max_bytes : int; max_states : int; max_work : int; sha : string option }

let read_file path max_bytes =
  let ic = try open_in_bin path with Sys_error e -> error "cannot read %s: %s" path e in
  Fun.protect ~finally:(fun () -> close_in_noerr ic) (fun () ->
      let size = in_channel_length ic in
      if size > max_bytes then error "%s has %s bytes, more than the limit %s; to check it, raise it: --max-bytes %d" path (grouped size) (grouped max_bytes) size;
      really_input_string ic size)

type json = Null | Bool of bool | Int of int | Big of string | Num | Str of string | Arr of json list
          | Obj of (string * json) list

let max_depth = 500 (* containers open at once (checker/load.py MAX_DEPTH) *)
let max_containers = 1_000_000 (* '{' and '[' bytes, in strings too (checker/load.py MAX_CONTAINERS) *)
let max_int_digits = 20

(* The code point at byte i of s and its length in bytes, if s holds strict UTF-8 there (with
   [~surrogates:true], also a lone surrogate encoded as three bytes: a string read from a \u escape
   keeps it so, as Python's str does). *)
let utf8_at ?(surrogates = false) (s : string) (i : int) : (int * int) option =
  let n = String.length s in
  let byte k = if i + k < n then Char.code s.[i + k] else 0 in
  let cont k = byte k land 0xC0 = 0x80 in
  let c = byte 0 in
  if c < 0x80 then Some (c, 1)
  else if c >= 0xC2 && c < 0xE0 && cont 1 then Some (((c land 0x1F) lsl 6) lor (byte 1 land 0x3F), 2)
  else if c >= 0xE0 && c < 0xF0 && cont 1 && cont 2 then
    let u = ((c land 0x0F) lsl 12) lor ((byte 1 land 0x3F) lsl 6) lor (byte 2 land 0x3F) in
    if u < 0x800 || (u >= 0xD800 && u < 0xE000 && not surrogates) then None else Some (u, 3)
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
           if u >= 0xD800 && u < 0xE000 then begin (* a lone surrogate: kept, in three bytes *)
             Buffer.add_char b (Char.chr (0xE0 lor (u lsr 12)));
             Buffer.add_char b (Char.chr (0x80 lor ((u lsr 6) land 0x3F)));
             Buffer.add_char b (Char.chr (0x80 lor (u land 0x3F)))
           end else Buffer.add_utf_8_uchar b (Uchar.of_int u)
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
    if not !integral then
      (match float_of_string_opt text with
       | Some f when Float.is_finite f -> Num
       | _ -> error "JSON number %s is out of range" (String.sub text 0 (min 40 (String.length text))))
    else if String.length text - (if text.[0] = '-' then 1 else 0) > max_int_digits then
      error "JSON integer with more than %d digits" max_int_digits
    else match int_of_string_opt text with Some i -> Int i | None -> Big text (* beyond 62 bits *) in
  let rec value depth =
    blank ();
    if (peek () = '{' || peek () = '[') && depth >= max_depth then error "JSON nested too deeply";
    match peek () with
    | '{' ->
      incr pos; blank ();
      if peek () = '}' then (incr pos; Obj [])
      else
        let keys = Hashtbl.create 8 in
        let rec members acc =
          blank ();
          let k = string () in
          if Hashtbl.mem keys k then error "duplicate JSON key %s" k;
          Hashtbl.add keys k ();
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
  let brackets = ref 0 in
  String.iter (fun c -> if c = '{' || c = '[' then incr brackets) s;
  if !brackets > max_containers then error "more than %s JSON objects and arrays" (grouped max_containers);
  let v = value 0 in
  blank ();
  if !pos <> n then fail "extra data";
  v

let type_name = function
  | Null -> "null" | Bool _ -> "boolean" | Int _ | Big _ -> "integer" | Num -> "number" | Str _ -> "string"
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
  | Int i -> error "%s.%s = %s is outside %s..%s" where key (grouped i) (grouped lo) (grouped hi)
  | Big text -> error "%s.%s = %s is outside %s..%s" where key (grouped_text text) (grouped lo) (grouped hi)
  | v -> error "%s.%s must be integer, found %s" where key (type_name v)
(* Any integer, as Python prints it (a field compared with a computed one, then shown). *)
let any_int where key o = match member where key o with
  | Int i -> string_of_int i | Big text -> text
  | v -> error "%s.%s must be integer, found %s" where key (type_name v)
let word where key words o =
  let w = str where key o in
  if List.mem w words then w else error "%s.%s %S is not one of %s" where key w (String.concat ", " words)
