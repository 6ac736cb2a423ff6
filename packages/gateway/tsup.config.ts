import { hermesTsup } from '../../tsup.shared.ts';

export default hermesTsup(['src/index.ts', 'src/testing.ts', 'src/postgres.ts']);
