(* verified/check CERT.json [--rules-sha256 HEX] [--max-states N] [--max-work N] [--max-bytes N]

   Reads a certificate about a positional game -- kind strategy (proof.ml) or table (table.ml) --
   and prints one line: VALID or INVALID on stdout (exit 0 or 1), or ERROR on stderr (exit 2: not a
   certificate this checker reads). VALID is printed only when the checks extracted from Rocq
   (core.ml: Checker.closed, Table.labels_closed), whose theorems say that the claim then holds,
   accept. Trusted (docs/trusted-base.md): load.ml, sha256.ml, positional.ml, this file, and the
   parts of proof.ml and table.ml that read the claim and call the proved checks; not trusted:
   unpack.ml, packed.ml, and the traversal and scans that build what the proved checks judge. *)

open Load

(* What the Rocq theorems cover, appended to a VALID line. *)
let proved = function
  | "table" -> "; minimax and closure checks proved in Rocq"
  | "pairing" -> "; pairing check proved in Rocq"
  | _ -> "; closure check proved in Rocq"

let check (limits : limits) (path : string) : string =
  let doc = parse_json (read_file path limits.max_bytes) in
  (match doc with Obj _ -> () | v -> error "a certificate is a JSON object, found %s" (type_name v));
  (match doc with Obj f when List.assoc_opt "format" f = Some (Str "certify-certificate") -> ()
                | _ -> error "format must be 'certify-certificate'");
  let version = int_in "certificate" "version" min_int max_int doc in
  if version <> 2 then
    error "certificate version %d is not readable: this checker reads version 2 (regenerate the file with `certify solve`)" version;
  let kind = word "certificate" "kind" ["table"; "strategy"; "pairing"] doc in
  let raw_rules = obj "certificate" "rules" doc in
  let family = word "rules" "family" ["positional"; "uttt"] raw_rules in
  let name = str "rules" "name" raw_rules in
  let stated_sha = str "certificate" "rules_sha256" doc in
  ignore (obj "certificate" "provenance" doc);
  let canonical, describe, run = match family with
    | "positional" ->
      let r = Positional.parse_rules raw_rules in
      (Positional.canonical r, Positional.describe r,
       fun () -> match kind with
         | "table" -> Table.check limits r doc
         | "pairing" -> Pairing.check limits r doc
         | _ -> Proof.check limits (Proof.positional r) doc)
    | _ ->
      let r = Uttt.parse_rules raw_rules in
      (Uttt.canonical r, Uttt.describe r,
       fun () -> match kind with
         | "table" -> error "the table kind is for the positional family, not uttt"
         | "pairing" -> error "the pairing kind is for positional games, not family uttt"
         | _ -> Proof.check limits (Proof.uttt r) doc) in
  let sha = Sha256.sha256 canonical in
  let head = Printf.sprintf "%s %s rules sha256 %s name %s" kind describe (String.sub sha 0 16) (Positional.ascii_name name) in
  try
    if stated_sha <> sha then invalid "rules_sha256 expected %s, found %s" sha (Positional.cut 80 (Positional.ascii_repr stated_sha));
    (match limits.sha with
     | Some want when not (String.starts_with ~prefix:(String.lowercase_ascii want) sha) ->
       invalid "not the game asked for: these rules have sha256 %s, the game asked for has sha256 %s" sha want
     | _ -> ());
    let summary = run () in
    Printf.sprintf "VALID %s: %s%s" head summary (proved kind)
  with Invalid why -> raise (Invalid (Printf.sprintf "INVALID %s: %s" head why))

let usage = "usage: verified/check CERT.json [--rules-sha256 HEX] [--max-states N] [--max-work N] [--max-bytes N]"

(* Where [sub] first occurs in [s] (raises Not_found). *)
module Str_find = struct
  let find s sub =
    let n = String.length s and m = String.length sub in
    let rec go i = if i + m > n then raise Not_found else if String.sub s i m = sub then i else go (i + 1) in
    go 0
end

(* A number as Python's int() reads one (checker/__main__.py): blanks around, a sign, digits with
   single underscores between them; and within checker/load.py MAX_BUDGET. *)
let max_budget = 1_000_000_000_000_000
let budget option text =
  let t = String.trim text in
  let body = if t <> "" && (t.[0] = '+' || t.[0] = '-') then String.sub t 1 (String.length t - 1) else t in
  let digits = String.concat "" (String.split_on_char '_' body) in
  let ok = body <> "" && body.[0] <> '_' && body.[String.length body - 1] <> '_'
           && not (String.exists (fun c -> c <> '_' && (c < '0' || c > '9')) body)
           && (try ignore (Str_find.find body "__"); false with Not_found -> true) in
  if not ok then error "%s %s: must be a whole number" option (Positional.ascii_repr text);
  match int_of_string_opt digits with
  | Some n when t.[0] <> '-' && n <= max_budget -> n
  | _ -> error "%s must be an integer in 0..1e+15, found %s" option (Positional.cut 40 t)

(* The options as argparse reads them: --name VALUE or --name=VALUE, a name shortened to any
   prefix that names one option. *)
let names = ["--rules-sha256"; "--max-states"; "--max-work"; "--max-bytes"; "--help"]
let option_name a =
  match List.filter (fun n -> String.starts_with ~prefix:a n) names with
  | [n] -> n
  | _ when List.mem a names -> a
  | [] -> error "unrecognized argument %s (%s)" a usage
  | _ -> error "ambiguous option %s (%s)" a usage

let () =
  (* A minor heap of 32 MB (the default is 2 MB): a check's boards and children mostly die before a
     minor collection, so fewer reach the major heap and its slack. The 16x4 proof (6.4 M
     positions), one run side by side: 263 s and 1,537 MB against 272 s and 1,936 MB. *)
  Gc.set { (Gc.get ()) with Gc.minor_heap_size = 4 * 1024 * 1024 };
  let rec options args limits path = match args with
    | [] -> (limits, path)
    | a :: rest when String.length a > 2 && String.sub a 0 2 = "--" && String.contains a '=' ->
      let i = String.index a '=' in
      options (String.sub a 0 i :: String.sub a (i + 1) (String.length a - i - 1) :: rest) limits path
    | a :: rest when String.length a > 2 && String.sub a 0 2 = "--" ->
      (match option_name a, rest with
       | "--help", _ -> print_endline usage; exit 0
       | "--rules-sha256", hex :: rest ->
         if String.length hex < 16 || String.length hex > 64
         || String.exists (fun c -> not (String.contains "0123456789abcdefABCDEF" c)) hex
         then error "--rules-sha256 must be 16 to 64 hex digits";
         options rest { limits with sha = Some hex } path
       | ("--max-states" | "--max-bytes" | "--max-work" as o), n :: rest ->
         let n = budget o n in
         options rest (match o with "--max-states" -> { limits with max_states = n }
                                   | "--max-work" -> { limits with max_work = n }
                                   | _ -> { limits with max_bytes = n }) path
       | o, _ -> error "%s expects a value (%s)" o usage)
    | "-h" :: _ -> print_endline usage; exit 0
    | a :: rest when path = None && (String.length a = 0 || a.[0] <> '-') -> options rest limits (Some a)
    | a :: _ -> error "unexpected argument %s (%s)" a usage in
  let code, line =
    try
      let limits, path = options (List.tl (Array.to_list Sys.argv))
          { max_bytes = 16 * 1024 * 1024; max_states = 1_000_000; max_work = 100_000_000; sha = None } None in
      let path = match path with Some p -> p | None -> error "%s" usage in
      (0, check limits path)
    with
    | Invalid line -> (1, line)
    | Unread why -> (3, "NOT READ: " ^ why)
    | Error why -> (2, "ERROR: " ^ why)
    | Stack_overflow -> (2, "ERROR: input nested too deeply")
    | Out_of_memory -> (2, "ERROR: out of memory while checking")
    | e -> (2, "ERROR: internal checker failure (" ^ Printexc.to_string e ^ ")") in
  progress_done ();
  output_string (if code >= 2 then stderr else stdout) (line ^ "\n");
  exit code
