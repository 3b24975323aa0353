"""The studio's devices that talk to a table: the card-reading shoe.

Owns how a shoe's card reader's lines become a dealer's commands (:mod:`.reads`: pure, no
I/O), where the lines come from (:mod:`.sources`: a serial device, a TCP socket, a file or
standard input) and the process that deals them as the table's dealer (:mod:`.reader`).
May import the rules core and the web protocol's names; never the server's internals: the
reader is a client of the server, like the dealer's console.
"""
