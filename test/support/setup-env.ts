import 'reflect-metadata';

// e2e tests start processes (the CLI, workers) and share two cores with whatever else runs: give a loaded
// machine room without hiding hangs forever.
jest.setTimeout(90_000);
