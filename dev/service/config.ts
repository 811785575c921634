/**
 * The reference service's options: its data, keys, page cap, latency, the faults it injects and
 * the quirks it can show (a real API's odd answers), with the no-fault default.
 */
import type { Dataset, Mutation } from './dataset';

export interface FaultOptions {
  /** Probabilities per API request, each 0..1. */
  error500: number;
  error502: number;
  error503: number;
  rateLimit: number;
  slow: number;
  truncated: number;
  /** Probability that a list request changes the data first (deactivates a partner or reverses the order). */
  churn: number;
  retryAfterSeconds: number;
  slowMs: number;
}

export interface Quirks {
  /** getVentureFundById answers `data` as a one-element list. */
  fundAsList: boolean;
  /** Which active-partners path answers: both, only the listed one, or only the sample's. */
  listPaths: 'both' | 'listed' | 'sample';
  /** Lists answer without their `pagination` object. */
  dropPagination?: boolean;
  /** Lists report this fraction of their real `totalItems` (0..1; 1 = the truth). */
  totalItemsFactor?: number;
  /** This page of a list answers with the page before it. */
  repeatPage?: number;
  /** A page past a list's last answers the last page, numbered as such (a service that clamps the page asked for). */
  clampPages?: boolean;
  /** A fund's industries are answered as names alone, not as items holding `industries`. */
  industryNames?: boolean;
  /** Every operation answers 200 with a web page (the address is a website's, not the service's). */
  webPage?: boolean;
  /** Lists report this `pageSize` whatever size they use. */
  reportedPageSize?: number;
  /** Lists report this `totalPages` whatever the truth. */
  reportedTotalPages?: number;
  /** Every record answered holds the request's own URL, key and all, in this field (a careless `self` link). */
  echoUrlIn?: string;
  /** This partner's `field` is answered as lists nested `depth` deep, wherever the partner is answered. */
  deepField?: { id: string; field: string; depth: number };
  /** Records answered with another `id` wherever they are answered (null: without one). */
  idOverrides?: Record<string, string | number | null>;
  /**
   * These partners answered otherwise wherever they are answered, as valid but odd JSON: an object's
   * fields over the record's (an id that is a list, a status that is an object, a field named
   * `__proto__`), anything else (null, text, a list) in place of the record.
   */
  oddRecords?: Record<string, unknown>;
  /** Ids asked for by id that are answered `{"data":[]}`. */
  emptyFor?: string[];
}

export interface ServiceOptions {
  dataset: Dataset & { mutate?(m: Mutation): void };
  apiKeys: string[];
  maxPageSize: number;
  latencyMs: number;
  jitterMs: number;
  faults: FaultOptions;
  quirks: Quirks;
  seed: number;
}

export const NO_FAULTS: FaultOptions = {
  error500: 0,
  error502: 0,
  error503: 0,
  rateLimit: 0,
  slow: 0,
  truncated: 0,
  churn: 0,
  retryAfterSeconds: 1,
  slowMs: 40000,
};
