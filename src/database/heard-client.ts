import { Client, type ClientConfig } from 'pg';

/**
 * node-postgres's Client, listening for its own 'error' from the start: the class every pool and direct
 * connection of the service is made of.
 *
 * PostgreSQL can end a session in the same read as the ready-for-query that completes its connect (a backend
 * ended by pg_terminate_backend, or one that finds its postmaster killed in a failover, the moment it goes
 * idle). The parser then reports the end before whoever asked pg-pool for the connection has had a turn to
 * listen, and pg-pool has already taken its own listener off: an 'error' nobody listens to ends the process.
 * Heard here, nothing else is needed: pg has already marked the client broken, so its next query fails and
 * pg-pool drops it on release (the query runner then hears the socket's close that follows). Every other
 * loss reaches the pool's and the query runner's own listeners as before.
 */
export class HeardClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    // The loss itself is reported by the pool's or the query runner's listener, or by the next query.
    this.on('error', () => undefined);
  }
}
