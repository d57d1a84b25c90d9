"""`epdle web`: a local web page for the helper, driving the same device as `play`.

`state.WebSession` wraps the `play` controller (one game, one device) for the
page (`multistate.MultiWebSession` a game of several boards, the colours one group per
board); `server.create_app` is the Starlette app with its JSON API, server-sent
events and the static page in `static/`; `security` guards it against other
pages the browser has open.
"""
