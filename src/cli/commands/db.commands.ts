import { prepareDatabase } from '../../database/prepare-database';
import { defineCommand } from '../command';

export const COMMANDS = [
  defineCommand({
    name: 'db:migrate',
    summary: 'creates the database if needed and applies migrations (also npm run migration:run)',
    description: 'Other commands refuse to run until the schema is current; the service applies migrations at start too.',
    options: {},
    examples: [''],
    run: async ({ config, schema }) => {
      const { created, applied } = await prepareDatabase(config, schema.migrations);
      return { database_created: created, migrations_applied: applied };
    },
  }),
];
