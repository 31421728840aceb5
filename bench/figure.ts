/** One figure of the bench: its value beside its goal and, where one was measured, a peer's. */
export interface Figure {
  figure: string;
  value: string;
  goal?: string;
  /** true: meets the goal; false: misses it; undefined: no goal. */
  met?: boolean;
  /** The goal is a budget: missing it fails the bench. */
  budget?: boolean;
  peer?: string;
  notes?: string;
}
