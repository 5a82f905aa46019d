// The tool's version, from package.json: for jobs that record which recall-feed made what they write (the report).
import packageJson from '../../package.json' with { type: 'json' };

export const TOOL_VERSION: string = packageJson.version;
