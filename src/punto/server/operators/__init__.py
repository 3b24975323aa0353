"""Operators as tenants: who may launch players onto this server's tables, and how.

An operator (a casino brand's back end) is data in the server's database
(:mod:`punto.server.store.operators`): its name, the ISO 4217 currencies it enables, the
languages its players use, the origins whose pages may frame the game, and a secret with
which it signs every call. Its server launches an already-logged-in player with a signed
``POST /api/operator/v1/launch`` (:mod:`punto.server.operators.routes`) and gets back a URL
of the web client carrying a one-time launch token, which the page exchanges for a session.

Owns: the operator model and currencies (:mod:`.model`), request signatures
(:mod:`.signing`), launches and their tokens (:mod:`.launch`), jurisdiction profiles
(:mod:`.jurisdictions`) and the rules of a play session under one (:mod:`.sessions`), and
the routes (:mod:`.routes`, :mod:`.profiles`). May import the
rules-free parts of the server (auth, config, store, errors); never a table or the money path.
"""
