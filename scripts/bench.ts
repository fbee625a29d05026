// `npm run bench` lives in scripts/bench/ (index.ts orchestrates); this path still runs it.
import './bench/index.ts';
