"""`certify explore`: write (or serve) the explorer page of a certificate or a game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from certify.cli.app import EXIT_BAD_INPUT, EXIT_FAILED, app, console, errors, fail, load_table_game, user_errors
from certify.cli.options import ForceOpt, JsonOpt
from certify.files import PAGE_MARK, certificate_kind, check_output, is_stdout, write_atomic

if TYPE_CHECKING:
    from solver.games.positional.rules import Rules

EXPLORE_HELP = ("A certificate file: a table (.json written by `certify solve`) or a proof (.json written by `certify prove`); "
                "or a GAME to solve first (see `certify games`).")


@app.command()
def explore(
    source: Annotated[str, typer.Argument(metavar="CERT|GAME", help=EXPLORE_HELP, show_default=False)],
    output: Annotated[Optional[Path], typer.Option("-o", "--output", metavar="FILE", help="Page to write (default: NAME.html; with --serve, none unless given); - for stdout.", show_default=False)] = None,
    serve: Annotated[bool, typer.Option("--serve", help="Serve the page on 127.0.0.1 until Ctrl-C.")] = False,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port for --serve (0: any free port).")] = 0,
    plies: Annotated[Optional[int], typer.Option("--plies", min=0, max=16, help="Embed only the states this many moves from the start (default: every state up to 200,000 states, else 4).")] = None,
    check: Annotated[bool, typer.Option("--check/--no-check", help="Run the independent checker and show its verdict on the page (skipped above 200,000 states).")] = True,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Write one self-contained HTML page to play through a certified game: board, move values, strategy tree.

    CERT may be a table certificate (`certify solve`) or a proof file (`certify prove`): a proof's
    page walks the prover's strategy against every reply.

    Example: certify explore certificates/w3t.json -o w3t.html
    """
    import checker
    from certify.record.certificate import certificate_json, read_certificate
    from certify.explorer import FULL_TABLE_LIMIT, build_page
    from certify.pipeline import solve_and_certify
    from certify.record.positions import CertifiedGame

    kind = certificate_kind(source)
    if kind not in (None, "table", "strategy"):
        raise fail(f"{source}: a certificate of kind {kind}; explore shows a table (certify solve) or a proof (certify prove)")
    if kind == "strategy":
        from certify.cli.solving import solving_progress
        from certify.explorer.proof import build_proof_page
        from certify.proving.single import ProofFileError, read_proof

        try:
            proof, game = read_proof(Path(source))
            verdict = checker.check_file(source).message if check else None
            with solving_progress(not json_out) as hook:
                html, facts = build_proof_page(proof, game, verdict, source,
                                               progress=None if hook is None else lambda n: hook("replaying the proof", -1, n))
        except ProofFileError as err:
            raise fail(str(err)) from None
        rules, total = game.rules, proof.proof.positions
    else:
        if kind == "table":
            with user_errors():
                certificate = read_certificate(Path(source))
        else:
            rules = load_table_game(source, certificates_too=True)  # another family (uttt) is refused here, in one line
            from certify.cli.solving import solving_progress

            planned = page_path(output, serve, rules, None)
            if planned is not None:  # with --serve and no -o, no page is written
                with user_errors():  # refuse before the solve, not after
                    check_output(planned, PAGE_MARK, force)
            with solving_progress(not json_out) as hook:
                certificate = solve_and_certify(rules, source, progress=hook).certificate
        certified = CertifiedGame(certificate)
        verdict = None
        if check and certified.states <= FULL_TABLE_LIMIT:
            verdict = (checker.check_file(source) if kind else checker.check_bytes(certificate_json(certificate).encode())).message
        html, facts = build_page(certified, verdict, source, plies)
        rules, total = certified.rules, certified.states
    path = page_path(output, serve, rules, source if kind else None)
    to_stdout = path is not None and is_stdout(path)
    if to_stdout:
        print(html, end="")
    elif path is not None:
        if not force:
            refuse_other_page(path, html)
        with user_errors():
            write_atomic(path, html, PAGE_MARK, force)
    summary = {
        "game": rules.name,
        "file": None if path is None else str(path),
        "bytes": facts.bytes,
        "states_embedded": facts.states,
        "states_total": total,
        "horizon_plies": facts.horizon,
        "verdict": verdict,
    }
    if json_out and not to_stdout:
        console.print_json(json.dumps(summary))
    elif path is not None:
        if kind == "strategy":  # a large proof is embedded breadth first up to certify/explorer/proof.py's NODE_LIMIT
            reach = ("every position of the proof" if facts.states >= total
                     else f"{facts.states:,} of the proof's {total:,} positions, breadth first from its start")
        else:
            reach = "every state" if facts.horizon is None else f"{facts.states:,} states within {facts.horizon} plies"
        where = "the page" if to_stdout else f"[bold]{path}[/]"
        (errors if to_stdout else console).print(f"wrote {where} ({facts.bytes:,} bytes, {reach}); open it in any browser")
    if verdict is not None and not verdict.startswith("VALID"):
        errors.print(f"[bold red]checker:[/] {verdict}")
    if serve:
        serve_page(html, port)
    if verdict is not None and not verdict.startswith("VALID"):  # INVALID: the answer is no; ERROR: unreadable
        raise typer.Exit(EXIT_FAILED if verdict.startswith("INVALID") else EXIT_BAD_INPUT)


def page_path(output: Path | None, serve: bool, rules: Rules, certificate_file: str | None) -> Path | None:
    """The page's file: -o, else none with --serve, else named after the certificate file
    (`w8.json` → `w8.html`) or the game (NAME.html), here."""
    if output is not None or serve:
        return output
    if certificate_file is not None:
        return Path(Path(certificate_file).stem + ".html")
    from certify.pipeline import default_filename

    return Path(default_filename(rules)).with_suffix(".html")


def refuse_other_page(path: Path, html: str) -> None:
    """Exit 2 unless `path` is free or a page of the same thing (its `certify-page` identity):
    a page of another game or proof is never replaced silently."""
    from certify.files import HEAD_BYTES, PAGE_IDENTITY

    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
    except FileNotFoundError:
        return
    except OSError:
        return  # check_output (in write_atomic) names the problem
    if not PAGE_MARK.search(head):
        return  # not a page: check_output's rule (replace only with --force) applies
    ours = PAGE_IDENTITY.search(html[:HEAD_BYTES].encode())
    theirs = PAGE_IDENTITY.search(head)
    if ours is None or theirs is None or theirs.group(1) != ours.group(1):
        shown = "an older page" if theirs is None else f"the page of {theirs.group(1).decode(errors='replace')}"
        raise fail(f"{path}: exists and is {shown}, not of this one; give -o FILE or --force to replace it")


def serve_page(html: str, port: int) -> None:
    """Serve `html` at http://127.0.0.1:PORT/ until interrupted."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    body = html.encode("utf-8")

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            if self.path.split("?")[0] not in ("/", "/index.html"):
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            return  # keep the terminal quiet

    try:
        server = ThreadingHTTPServer(("127.0.0.1", port), Page)
    except OSError as err:
        raise fail(f"cannot serve on 127.0.0.1:{port}: {err.strerror or err}") from None
    errors.print(f"serving on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
