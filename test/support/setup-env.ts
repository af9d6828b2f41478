import 'reflect-metadata';

// e2e tests share the run's database; give slow machines room without hiding hangs forever.
jest.setTimeout(30_000);
