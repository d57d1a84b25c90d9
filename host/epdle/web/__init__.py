"""`epdle web`: a local web page for the helper, driving the same device as `play`.

`state.WebSession` wraps the `play` controller (one game, one device, one board
or several: the game's kind answers) for the page; `server.create_app` is the
Starlette app with its JSON API, server-sent events and the static page in
`static/`; `security` guards it against other pages the browser has open.
"""
