// XDG_CONFIG_HOME and XDG_CACHE_HOME holding a relative path are ignored, as the XDG Base Directory spec says: read
// against the working folder, each folder a command ran in would have a config (and a cache) of its own.
import { describe, expect, it } from 'vitest';
import { defaultArchiveFolder } from '../../src/runtime/archive/archive-file.js';
import { cacheFolder, configFilePath, defaultConfigDir } from '../../src/runtime/config/paths.js';

const HOME = '/home/u';

describe('the config folder on Linux', () => {
  it.each(['conf', './conf', '../conf', 'conf/'])('XDG_CONFIG_HOME=%s (relative) is ignored: ~/.config', (value) => {
    expect(defaultConfigDir({ XDG_CONFIG_HOME: value }, 'linux', HOME)).toBe('/home/u/.config/recall-feed');
    expect(configFilePath(undefined, { XDG_CONFIG_HOME: value, HOME })).not.toContain('conf/recall-feed');
  });

  it('an absolute XDG_CONFIG_HOME is used; an empty one is ~/.config', () => {
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/srv/conf' }, 'linux', HOME)).toBe('/srv/conf/recall-feed');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '' }, 'linux', HOME)).toBe('/home/u/.config/recall-feed');
  });
});

describe('the cache folder on Linux', () => {
  it.each(['cache', './cache'])('XDG_CACHE_HOME=%s (relative) is ignored: ~/.cache', (value) => {
    expect(cacheFolder({ XDG_CACHE_HOME: value }, 'linux', HOME)).toBe('/home/u/.cache/recall-feed');
  });

  it('an absolute XDG_CACHE_HOME is used; RECALL_FEED_CACHE_DIR still comes first', () => {
    expect(cacheFolder({ XDG_CACHE_HOME: '/var/cache/u' }, 'linux', HOME)).toBe('/var/cache/u/recall-feed');
    expect(cacheFolder({ XDG_CACHE_HOME: '/var/cache/u', RECALL_FEED_CACHE_DIR: '/c' }, 'linux', HOME)).toBe('/c');
  });
});

describe('the default archive folder', () => {
  it.each(['data', './data'])('XDG_DATA_HOME=%s (relative) is ignored: ~/.local/share', (value) => {
    expect(defaultArchiveFolder({ XDG_DATA_HOME: value, HOME })).toBe('/home/u/.local/share/recall-feed');
  });

  it('an absolute XDG_DATA_HOME is used', () => {
    expect(defaultArchiveFolder({ XDG_DATA_HOME: '/srv/data', HOME })).toBe('/srv/data/recall-feed');
  });
});
