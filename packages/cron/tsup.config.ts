import { hermesTsup } from '../../tsup.shared.ts';

export default hermesTsup(['src/index.ts', 'src/tool-schema.ts', 'src/postgres.ts']);
