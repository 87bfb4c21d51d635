#!/usr/bin/env node
import '../dist/tracemaker.js';
