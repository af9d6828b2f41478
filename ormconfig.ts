import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { typeormOptions } from './src/database/typeorm-options';
import { ENTITIES } from './src/entities';
import { MIGRATIONS } from './src/migrations';

/** The DataSource the TypeORM CLI uses for migration:generate and migration:run. */
export default new DataSource(typeormOptions(loadConfig(), { entities: ENTITIES, migrations: MIGRATIONS }));
