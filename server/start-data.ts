/**
 * What the server starts with, from the files its options name: the data (the data file's, else
 * the seed), the scenario, and the data persisted in a file, with the store that keeps it there.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, parseScenario, SEED, type Contract, type DataSet, type Scenario } from '../mock-api/index.ts';
import { parseDataFile } from './data-file.ts';
import { fileStore, type FileStore } from './persist.ts';

/** The files of ServerOptions read here. */
export interface StartFiles {
  dataFile?: string | null;
  persistFile?: string | null;
  scenarioFile?: string | null;
}

export interface StartData {
  /** The data to start with and reset to. */
  initial: DataSet;
  scenario: Scenario;
  /** Where the data is kept (--persist), or null. */
  store: FileStore | null;
  /** What the store held at start, or null when it held nothing yet. */
  persisted: string | null;
  /** The data at start: what the store held, else the initial data. */
  current: DataSet;
}

export function readStartData(options: StartFiles, contract: Contract): StartData {
  const initial: DataSet = options.dataFile
    ? parseDataFile(readConfigFile(options.dataFile, 'data file'), contract, options.dataFile, SEED)
    : SEED;
  const scenario: Scenario = options.scenarioFile
    ? parseScenario(
        parseJson(readConfigFile(options.scenarioFile, 'scenario file'), options.scenarioFile),
        contract.spec,
        options.scenarioFile,
      )
    : {};
  const store: FileStore | null = options.persistFile ? fileStore(options.persistFile) : null;
  const persisted = store?.read() ?? null;
  const current = persisted === null ? initial : parseDataFile(persisted, contract, options.persistFile!, initial);
  return { initial, scenario, store, persisted, current };
}

function readConfigFile(file: string, what: string): string {
  try {
    // Stryker disable next-line StringLiteral: without an encoding the file comes as a Buffer, and both of its readers only hand it to JSON.parse, which reads it as the same UTF-8 text
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: the ${what} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
