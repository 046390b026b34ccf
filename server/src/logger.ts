import pino from 'pino';
import type { Config } from './config';

/**
 * The server's log: one JSON line per event on standard output (or `destination`). Written asynchronously: lines
 * logged while a write is under way go out together in the next one, rather than one blocking write per request;
 * pino flushes what is left when the process exits.
 */
export function createLogger(level: Config['logLevel'], destination: string | number = 1): pino.Logger {
  return pino({ level, base: { service: 'medu-admin' } }, pino.destination({ dest: destination, sync: false }));
}
