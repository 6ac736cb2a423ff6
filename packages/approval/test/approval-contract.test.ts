import { describeApprovalHandlerContract } from '../src/testing.js';
import {
  DenyAllApprovalHandler,
  ScriptedApprovalHandler,
} from './support/scripted-approval-handler.js';

describeApprovalHandlerContract('scripted person', (human) => new ScriptedApprovalHandler(human));

describeApprovalHandlerContract('nobody to ask (deny all)', () => new DenyAllApprovalHandler(), {
  scriptable: false,
});
