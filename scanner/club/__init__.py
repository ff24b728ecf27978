"""The club: many tables' event logs brought together in one PostgreSQL store.

Each table keeps writing its own SQLite log first (scanner.log) and a shipper copies what the
log has committed to the store, keyed by the log's identity and sequence number, so a copy is
delivered at least once and applied exactly once. The director's page reads the store.

    schema   the store's tables, roles and migrations
    access   URLs, tokens and connections: who may do what in the store
    admin    creating the store, issuing and revoking tokens, status
    shipper  a table's log → the store
    join     a table joining: its token checked, the club's session learnt, its log shipped
    boards   the same board as seen at several tables, compared (Law 87, 6F, 7B1)
    view     what the director's page shows, folded from the store
"""
