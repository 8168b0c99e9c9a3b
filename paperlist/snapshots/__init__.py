"""Snapshots: how one builder's home reaches the machines that serve it.

``paperlist publish DIR`` writes a consistent, immutable snapshot of a home into DIR (the store
through SQLite's backup API, the live index and vector generations, the ingest reports), cut into
content-defined chunks that are stored once under their sha256, so that a snapshot which changes
one venue adds only the chunks that changed. ``paperlist serve --follow URL`` polls DIR's
``LATEST`` file, fetches the chunks it does not hold yet, verifies every chunk and every file
against the manifest, and switches its home to the new snapshot atomically.

Modules: ``manifest`` (the format, and checks of a manifest read from the network), ``chunks``
(cutting, compressing and checking chunks), ``publish`` (the builder's side), ``remote`` (reading
a published DIR over HTTP or from a path), ``follow`` (the follower's side) and ``layout`` (a
follower's home: its snapshots, the ``live`` link, its state). They import ``files``,
``store``, ``index`` and each other; nothing outside ``service`` and ``cli`` imports them.
"""
