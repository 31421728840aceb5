/** The last exchanges of the API, newest first, for GET /__mock/requests. */
export interface Exchange {
  method: string;
  /** Path and query, as requested. */
  path: string;
  /** The answer's status; 0 when the connection was dropped without one. */
  status: number;
  /** When the request arrived (ISO 8601). */
  time: string;
  /** Milliseconds from the request's arrival to its answer. */
  duration: number;
}

export interface Journal {
  readonly size: number;
  record(exchange: Exchange): void;
  /** Newest first. */
  entries(): Exchange[];
  clear(): void;
}

export function createJournal(size: number): Journal {
  const kept: Exchange[] = [];
  return {
    size,
    record(exchange) {
      kept.push(exchange);
      if (kept.length > size) kept.splice(0, kept.length - size);
    },
    entries: () => kept.toReversed(),
    clear: () => {
      kept.length = 0;
    },
  };
}
