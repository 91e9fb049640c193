"""A misbehaving engine for match tests: speaks the engine protocol and fails on purpose.

    python stub_engine.py GAME MODE [LOG]

MODE: ``legal`` plays the first legal move; ``slow`` does too, after 0.5 s; ``late`` answers
only after 30 s but keeps answering ``isready``; ``illegal`` answers ``bestmove zz``;
``crash`` exits at ``go``; ``garbage`` prints bytes that are not UTF-8 before its move; ``hang`` stops reading at ``go``; ``silent`` never completes the
handshake; ``once`` starts only if the file LOG does not exist yet (and creates it).
Every command received is appended to LOG when given (except in ``once``).
"""
import os
import sys
import threading
import time

from crystalpick.engine import get_game


def main(game_name, mode, log=None):
    if mode == "once":
        if os.path.exists(log):
            sys.exit(1)
        open(log, "w").close()
        log = None
    game = get_game(game_name)
    state = game.new_initial_state()
    for line in sys.stdin:
        if log:
            with open(log, "a") as handle:
                handle.write(line)
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "protocol" and mode != "silent":
            say(f"id game {game_name}")
            say("protocolok")
        elif command == "isready":
            say("readyok")
        elif command.startswith("setoption") and words[2].startswith("rule."):
            game = get_game(game_name, {words[2][5:]: words[4]})
        elif command == "position":
            cut = words.index("moves") if "moves" in words else len(words)
            base = " ".join(words[1:cut])
            state = game.state(None if base == "start" else base, words[cut + 1:])
        elif command == "go":
            move = state.move_to_str(state.legal_moves()[0])
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                time.sleep(60)
            if mode == "illegal":
                move = "zz"
            if mode == "slow":
                time.sleep(0.5)
            if mode == "garbage":      # bytes that are not UTF-8, then a legal move
                sys.stdout.buffer.write(b"info string \xff\xfe\x80\x00 \xc3\n")
                sys.stdout.buffer.flush()
            if mode == "late":
                threading.Timer(30, say, [f"bestmove {move}"]).start()
                continue
            say(f"bestmove {move}")
        elif command == "quit":
            os._exit(0)


def say(text):
    print(text, flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
