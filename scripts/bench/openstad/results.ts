/** The shape of bench/openstad.json, shared by the run that writes it and the Markdown made from it. */
export interface SideFigures {
  median: number;
  p95: number;
  n: number;
  /** Size of the answer body. */
  bytes: number;
}

export interface CaseResult {
  name: string;
  ours: SideFigures;
  theirs: SideFigures;
  /** Ours / theirs, of the medians: below 1 we are faster. */
  ratio: number;
}

export interface GrowthResult {
  name: string;
  /** Median on the large site / median on the 100-idea site, per side. */
  ours: number;
  theirs: number;
}

export interface ThroughputResult {
  name: string;
  /** Requests per second, or the error that stopped that side's load. */
  ours: number | string;
  theirs: number | string;
  /** Ours / theirs: above 1 we serve more (null when a side failed). */
  ratio: number | null;
}

export interface OpenstadResults {
  generatedAt: string;
  machine: { cpus: number; cpu: string; memoryGiB: number; platform: string; driverNode: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  openstad: { repository: string; commit: string; mariadb: string };
  howRun: string;
  config: { runs: number; warmup: number; largeIdeas: number; loadRequests: number; inFlight: number };
  cases: CaseResult[];
  growth: GrowthResult[];
  throughput: ThroughputResult[];
}
