"""Serves a built site on 127.0.0.1 under a base path (/ or /padlab/), like GitHub Pages."""
import functools
import http.server
import os
import sys

port, root, base = int(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]


class Handler(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path):
        if not path.startswith(base):
            return os.path.join(root, "__missing__")
        return super().translate_path("/" + path[len(base):])

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=root)).serve_forever()
