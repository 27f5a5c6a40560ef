'use strict';
// Built by `npm ci` (node-gyp; speexdsp from its source in speexdsp/): see binding.gyp and README.md.
module.exports = require('./build/Release/hark_aec.node');
