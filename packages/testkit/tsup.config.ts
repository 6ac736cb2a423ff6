import { hermesTsup } from '../../tsup.shared.ts';

export default hermesTsup(['src/index.ts', 'src/bin.ts', 'src/postgres.ts']);
