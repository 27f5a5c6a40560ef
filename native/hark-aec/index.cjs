'use strict';
// Built by `npm ci` (node-gyp, against the system's libspeexdsp): see binding.gyp.
module.exports = require('./build/Release/hark_aec.node');
