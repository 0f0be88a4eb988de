import type { BundlerPlugin } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import type { ClientPlugin } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { PoolConfig } from 'pg';
import { QueryDefinition } from '@temporalio/workflow';
import { Registry } from 'prom-client';
import type { SearchAttributePair } from '@temporalio/common';
import { SignalDefinition } from '@temporalio/workflow';
import { temporal } from '@temporalio/proto';
import type { Tracer } from '@opentelemetry/api';
import { UpdateDefinition } from '@temporalio/common';
import type { Worker } from '@temporalio/worker';
import type { WorkerOptions } from '@temporalio/worker';
import type { WorkerPlugin } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { z } from 'zod';

/** The workflow type every run (and every sub-agent's run) is started with. */
export declare const AGENT_RUN_WORKFLOW_TYPE = "agentRun";

/**
 * Where a client or a worker finds Temporal and its runs: the same fields on both sides
 * (`AgentClient.connect(options)` and `createAgentWorker(options)`), so a program that starts both
 * writes them once. Each field overrides what the environment (`env`, default `process.env`: the
 * TEMPORAL_* variables and profiles, see the README's table) says.
 */
export declare interface AgentConnectOptions {
    /** host:port of the Temporal frontend (TEMPORAL_ADDRESS; default localhost:7233). */
    address?: string;
    /** The Temporal namespace (TEMPORAL_NAMESPACE; default `default`). */
    namespace?: string;
    /** The task queue the agent workers poll (TEMPORAL_TASK_QUEUE; default `agents`). */
    taskQueue?: string;
    /** TLS: `true` for the system's roots, or the SDK's TLS config (TEMPORAL_TLS*). */
    tls?: TemporalConnection['options']['tls'];
    /** An API key for Temporal Cloud and other servers that take one (TEMPORAL_API_KEY). */
    apiKey?: string;
    /** Where the TEMPORAL_* and AGENT_* settings are read from (default `process.env`). */
    env?: NodeJS.ProcessEnv;
}

export declare type AgentDefinition = z.output<typeof AgentDefinitionSchema>;

/** An agent definition is malformed; raised while the registry is built, before the worker polls. */
export declare class AgentDefinitionError extends DurableAgentError {
    readonly name = "AgentDefinitionError";
    readonly code = "AGENT_DEFINITION_INVALID";
    readonly retryable = false;
}

export declare type AgentDefinitionInput = z.input<typeof AgentDefinitionSchema>;

/** An agent is configuration: one workflow serves them all. */
export declare const AgentDefinitionSchema: z.ZodObject<{
    model: z.ZodOptional<z.ZodString>;
    thinking: z.ZodOptional<z.ZodDiscriminatedUnion<[z.ZodObject<{
        type: z.ZodLiteral<"adaptive">;
        display: z.ZodOptional<z.ZodEnum<{
            summarized: "summarized";
            omitted: "omitted";
        }>>;
    }, z.core.$loose>, z.ZodObject<{
        type: z.ZodLiteral<"enabled">;
        budget_tokens: z.ZodNumber;
        display: z.ZodOptional<z.ZodEnum<{
            summarized: "summarized";
            omitted: "omitted";
        }>>;
    }, z.core.$loose>, z.ZodObject<{
        type: z.ZodLiteral<"between_tools">;
    }, z.core.$loose>, z.ZodObject<{
        type: z.ZodLiteral<"disabled">;
    }, z.core.$loose>], "type">>;
    effort: z.ZodOptional<z.ZodEnum<{
        max: "max";
        low: "low";
        medium: "medium";
        high: "high";
        xhigh: "xhigh";
    }>>;
    temperature: z.ZodOptional<z.ZodNumber>;
    serverTools: z.ZodDefault<z.ZodArray<z.ZodObject<{
        type: z.ZodString;
        name: z.ZodString;
    }, z.core.$loose>>>;
    name: z.ZodString;
    description: z.ZodString;
    modelTier: z.ZodEnum<{
        fast: "fast";
        balanced: "balanced";
        powerful: "powerful";
    }>;
    provider: z.ZodOptional<z.ZodEnum<{
        anthropic: "anthropic";
        bedrock: "bedrock";
        vertex: "vertex";
        foundry: "foundry";
    }>>;
    tools: z.ZodArray<z.ZodString>;
    systemPrompt: z.ZodString;
    maxIterations: z.ZodNumber;
    maxTokens: z.ZodDefault<z.ZodNumber>;
    approval: z.ZodOptional<z.ZodObject<{
        requiresApproval: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        alwaysApproved: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        alwaysRejected: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        scopes: z.ZodOptional<z.ZodObject<{
            read: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
            write: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
            execute: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
        }, z.core.$strip>>;
    }, z.core.$strip>>;
    approvers: z.ZodOptional<z.ZodArray<z.ZodString>>;
    workspace: z.ZodDefault<z.ZodEnum<{
        shared: "shared";
        "per-run": "per-run";
    }>>;
    network: z.ZodDefault<z.ZodBoolean>;
    env: z.ZodDefault<z.ZodArray<z.ZodString>>;
    limits: z.ZodOptional<z.ZodObject<{
        cpuSeconds: z.ZodDefault<z.ZodNumber>;
        memoryBytes: z.ZodDefault<z.ZodNumber>;
        fileSizeBytes: z.ZodDefault<z.ZodNumber>;
        openFiles: z.ZodDefault<z.ZodNumber>;
        processes: z.ZodDefault<z.ZodNumber>;
        tmpBytes: z.ZodDefault<z.ZodNumber>;
        totalMemoryBytes: z.ZodDefault<z.ZodNumber>;
        totalProcesses: z.ZodDefault<z.ZodNumber>;
        cpuCores: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strict>>;
    context: z.ZodPrefault<z.ZodObject<{
        windowTokens: z.ZodDefault<z.ZodNumber>;
        targetShare: z.ZodDefault<z.ZodNumber>;
        keepRecentTurns: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strip>>;
    mcpServers: z.ZodDefault<z.ZodArray<z.ZodString>>;
    completionTools: z.ZodDefault<z.ZodArray<z.ZodEnum<{
        complete_task: "complete_task";
        attempt_completion: "attempt_completion";
        task_completed: "task_completed";
    }>>>;
    outputSchema: z.ZodOptional<z.ZodUnion<readonly [z.ZodCustom<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>, z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>, z.ZodRecord<z.ZodString, z.ZodUnknown>]>>;
    subAgents: z.ZodDefault<z.ZodArray<z.ZodString>>;
    handoffs: z.ZodDefault<z.ZodArray<z.ZodString>>;
    delegation: z.ZodPrefault<z.ZodObject<{
        maxDepth: z.ZodDefault<z.ZodNumber>;
        maxPerTurn: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strip>>;
    guardrails: z.ZodDefault<z.ZodArray<z.ZodObject<{
        name: z.ZodString;
        on: z.ZodEnum<{
            output: "output";
            input: "input";
            tool: "tool";
        }>;
        check: z.ZodUnion<readonly [z.ZodObject<{
            function: z.ZodString;
        }, z.core.$strip>, z.ZodObject<{
            model: z.ZodObject<{
                instructions: z.ZodString;
            }, z.core.$strip>;
        }, z.core.$strip>]>;
        onTrip: z.ZodDefault<z.ZodEnum<{
            end_run: "end_run";
            reject_call: "reject_call";
        }>>;
        tools: z.ZodOptional<z.ZodArray<z.ZodString>>;
    }, z.core.$strip>>>;
    approvalHandler: z.ZodOptional<z.ZodUnion<readonly [z.ZodObject<{
        function: z.ZodString;
    }, z.core.$strip>, z.ZodObject<{
        model: z.ZodObject<{
            rubric: z.ZodString;
        }, z.core.$strip>;
    }, z.core.$strip>]>>;
    mode: z.ZodOptional<z.ZodEnum<{
        default: "default";
        plan: "plan";
        acceptEdits: "acceptEdits";
        dontAsk: "dontAsk";
    }>>;
}, z.core.$strip>;

/** A snapshot of everything the collector counted since the worker started. */
export declare interface AgentMetrics {
    runsStarted: number;
    /** Ended runs by final status (completed, max_iterations, failed, cancelled). */
    runsEnded: Record<string, number>;
    iterations: number;
    toolCalls: number;
    tools: Record<string, ToolMetrics>;
    tokens: TokenUsage;
    approvals: {
        requested: number;
        decided: Record<string, number>;
    };
    errors: {
        total: number;
        byType: Record<string, number>;
    };
}

/**
 * The type of what an agent's runs return in `result().output`: its zod `outputSchema`'s output, or
 * `unknown` for an agent without one (or with a JSON Schema from a configuration file).
 */
export declare type AgentOutput<A> = A extends {
    outputSchema: infer S;
} ? (S extends z.ZodType ? z.output<S> : unknown) : unknown;

export declare interface AgentRegistry {
    /** The agents, each with its tool list complete: the tools of the MCP servers it names are in it. */
    agents: ReadonlyMap<string, AgentDefinition>;
    tools: ReadonlyMap<string, Tool>;
    /** The tool specs (agent tools, then control tools) sent with each model call, built once. */
    modelTools(agent: string): ModelToolSpec[];
    /** What the workflow needs to know of each of the agent's tools. */
    toolInfo(agent: string): Record<string, ResolvedTool>;
}

export declare type AgentRunInput = z.input<typeof AgentRunInputSchema>;

/**
 * The `agentRun` input. `agent`, `task`, `maxIterations` and `toolApproval` are a contract with
 * external clients; fields are only ever added, and only as optional ones.
 */
export declare const AgentRunInputSchema: z.ZodObject<{
    agent: z.ZodString;
    task: z.ZodString;
    maxIterations: z.ZodOptional<z.ZodNumber>;
    user: z.ZodOptional<z.ZodString>;
    toolApproval: z.ZodOptional<z.ZodObject<{
        requiresApproval: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        alwaysApproved: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        alwaysRejected: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        scopes: z.ZodOptional<z.ZodObject<{
            read: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
            write: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
            execute: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
        }, z.core.$strip>>;
    }, z.core.$strip>>;
    approvalTimeoutSeconds: z.ZodOptional<z.ZodNumber>;
    resume: z.ZodOptional<z.ZodObject<{
        fromWorkflowId: z.ZodString;
        fromRunId: z.ZodOptional<z.ZodString>;
        previousOutcome: z.ZodString;
        tasks: z.ZodDefault<z.ZodArray<z.ZodObject<{
            id: z.ZodString;
            description: z.ZodString;
            status: z.ZodEnum<{
                pending: "pending";
                in_progress: "in_progress";
                completed: "completed";
                failed: "failed";
                skipped: "skipped";
            }>;
            notes: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>>;
        savedSummaries: z.ZodDefault<z.ZodArray<z.ZodObject<{
            keyPoints: z.ZodArray<z.ZodString>;
            nextSteps: z.ZodArray<z.ZodString>;
        }, z.core.$strip>>>;
        conversationSummary: z.ZodOptional<z.ZodString>;
        usage: z.ZodOptional<z.ZodObject<{
            inputTokens: z.ZodNumber;
            outputTokens: z.ZodNumber;
            cacheReadInputTokens: z.ZodNumber;
            cacheCreationInputTokens: z.ZodNumber;
        }, z.core.$strip>>;
        iterationsBefore: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strip>>;
    priority: z.ZodOptional<z.ZodNumber>;
    fairnessKey: z.ZodOptional<z.ZodString>;
    approvers: z.ZodOptional<z.ZodArray<z.ZodString>>;
    network: z.ZodOptional<z.ZodBoolean>;
    modelRetryMaxSeconds: z.ZodOptional<z.ZodNumber>;
    subAgents: z.ZodOptional<z.ZodArray<z.ZodString>>;
    followUps: z.ZodOptional<z.ZodBoolean>;
    idleTimeoutSeconds: z.ZodOptional<z.ZodNumber>;
    mode: z.ZodOptional<z.ZodEnum<{
        default: "default";
        plan: "plan";
        acceptEdits: "acceptEdits";
        dontAsk: "dontAsk";
    }>>;
    parent: z.ZodOptional<z.ZodObject<{
        workflowId: z.ZodString;
        rootWorkflowId: z.ZodString;
        depth: z.ZodNumber;
    }, z.core.$strip>>;
    historyBudget: z.ZodOptional<z.ZodObject<{
        maxEvents: z.ZodOptional<z.ZodNumber>;
        maxBytes: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strip>>;
    outputSchema: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
    checkpoint: z.ZodOptional<z.ZodUnknown>;
    resumedFrom: z.ZodOptional<z.ZodString>;
    copyWorkspaceOf: z.ZodOptional<z.ZodString>;
    model: z.ZodOptional<z.ZodString>;
    effort: z.ZodOptional<z.ZodEnum<{
        max: "max";
        low: "low";
        medium: "medium";
        high: "high";
        xhigh: "xhigh";
    }>>;
}, z.core.$strip>;

/**
 * What `agentRun` returns. `status` says why the loop stopped; `completion` is the agent's own word.
 * `TOutput` is the type of `output`: a handle started with a `defineAgent` agent knows it from the
 * agent's zod `outputSchema` (see AgentOutput); otherwise it is `unknown`, to be checked by the caller.
 */
export declare interface AgentRunResult<TOutput = unknown> {
    status: 'completed' | 'max_iterations' | 'guardrail_tripped';
    completion?: Completion;
    /** The typed result, when the run (or its agent) asked for one with an output schema. */
    output?: TOutput;
    /** With `guardrail_tripped`: which guardrail stopped the run, why, and at which step. */
    guardrail?: {
        name: string;
        reason: string;
        step: string;
    };
    /** A thread (`followUps`): every turn's completion, in order. */
    completions?: Completion[];
    iterations: number;
    usage: TokenUsage;
    tasks: Task[];
    agent: string;
    workflowId: string;
    /**
     * What went wrong without stopping the run, as `status.warnings` says it (a choice that could not be
     * saved, messages sent while it worked that it ended before delivering); absent when there is none.
     */
    warnings?: string[];
    /** What `agentctl resume` carries into a follow-up run. */
    carryOver: {
        savedSummaries: SavedSummary[];
        conversationSummary?: string;
        lastAssistantText?: string;
    };
}

/**
 * The call shape of `agentRun`, for typed handles (`WorkflowHandle<AgentRunWorkflow>`). Clients name
 * this instead of `typeof agentRun` so the public API does not reach into the workflow's code;
 * test/contract/agent-run-workflow.test.ts checks the workflow still has this shape.
 */
export declare type AgentRunWorkflow = (input: AgentRunInput) => Promise<AgentRunResult>;

export declare interface AgentWorker {
    worker: Worker;
    registry: AgentRegistry;
    /** The worker's MCP server connections (none without a configuration that names servers). */
    mcp: McpPool;
    client: Client;
    /** How tool processes run here: `bwrap`, or `none` (unsandboxed; a warning was printed). */
    processes: ProcessRunner;
    /** Whether AgentName/AgentStatus were there, registered, or refused (then a warning was printed). */
    searchAttributes: SearchAttributeCheck;
    /** The settings this worker runs with (print them with `describeWorkerSettings`). */
    settings: WorkerSettings;
    /** The audit log this worker writes (undefined when it writes none). */
    auditLog: string | undefined;
    /**
     * The start banner of this worker: its settings, one `name: value` per line (secrets masked), with
     * what it serves and writes (the audit log, metrics, lifecycle lines) as it really is.
     */
    describe(served?: Partial<ServedSettings>): string[];
    /**
     * Closes the connections and the audit log: after `worker.run()` has returned, or on a worker that
     * never ran (which a SIGINT/SIGTERM also closes); a running worker is shut down first.
     */
    close(): Promise<void>;
}

/**
 * A worker's options. The connection fields (`address`, `namespace`, `taskQueue`, `tls`, `apiKey`,
 * `env`) are the client's (`AgentClient.connect`): each overrides the environment's setting.
 */
export declare interface AgentWorkerOptions extends AgentConnectOptions {
    /** Agents to serve (default: the built-in `general` and `reader`, or the configuration file's). */
    agents?: AgentDefinitionInput[];
    /**
     * A YAML or JSON file of agents and MCP servers (default: `AGENT_CONFIG` from `env`). Its agents
     * replace the built-in ones unless it sets `includeBuiltinAgents`; `agents` given here are added.
     */
    agentConfig?: string;
    /** Tools besides the built-in ones. */
    tools?: Tool[];
    workspaceRoot?: string;
    conversations?: ConversationStore;
    lifecycleHandlers?: LifecycleHandler[];
    /**
     * The worker's settings (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, AGENT_MODEL_*, AGENT_SANDBOX,
     * AGENT_APPROVERS_FILE, AGENT_TOOL_ENV, ...; all listed in config/settings-catalog.ts), parsed once
     * into `WorkerSettings` when the worker is built. Default: `process.env`. Tool processes never see it:
     * they get a clean environment (see tools/sandbox/tool-environment.ts).
     */
    env?: NodeJS.ProcessEnv;
    /**
     * Settings already parsed (`npm run worker` parses them once to print its banner); `env` is then
     * not read again. Default: parsed from `env` here, with a warning for each unknown AGENT_* name.
     */
    settings?: WorkerSettings;
    /** Functions agents' guardrails may name (`guardrails: [{ check: { function: "name" } }]`). */
    guardrails?: Record<string, GuardrailFunction>;
    /** Functions agents' `approvalHandler` may name. */
    approvalHandlers?: Record<string, ApprovalHandlerFunction>;
    /**
     * Where the hash-chained audit log is written. Default: where the settings say, as `npm run worker`
     * writes it (AGENT_AUDIT_LOG, or a log of this process's own in AGENT_AUDIT_DIR, ./.agent-audit);
     * `false` (or AGENT_AUDIT_LOG=off) writes none.
     */
    auditLog?: string | false;
    /** A prebuilt workflow bundle (tests and benchmarks share one to start workers quickly). */
    workflowBundle?: WorkerOptions['workflowBundle'];
    workerOptions?: Partial<WorkerOptions>;
    /**
     * OpenTelemetry tracing (see observability/tracing.ts). Default: on when OTEL_EXPORTER_OTLP_ENDPOINT
     * is set. With a prebuilt `workflowBundle`, bundle it with the plugin's workflow interceptors
     * (`TRACING_WORKFLOW_MODULES`), or workflow spans are missing.
     */
    tracing?: Tracing;
    /** Replaces the operator call that registers search attributes (tests stand in a server that refuses). */
    registerSearchAttributes?: SearchAttributeRegistrar;
    /** Credentials for Bedrock, Vertex AI or Foundry instead of each cloud's default chain (see docs/guides/providers.md). */
    modelCredentials?: ModelCredentials;
}

/** Several calls wait and the person did not say which one; the message lists them. */
export declare class AmbiguousApprovalError extends DurableAgentError {
    readonly name = "AmbiguousApprovalError";
    readonly code = "AMBIGUOUS_APPROVAL";
    readonly retryable = false;
}

/** The blocks the API sends that this runtime keeps as they are, without reading them. */
export declare type ApiBlock = ThinkingBlock | RedactedThinkingBlock | ServerToolUseBlock | ServerToolResultBlock | ContainerUploadBlock;

export declare type ApprovalBatch = z.infer<typeof ApprovalBatchSchema>;

/**
 * The `decideApprovals` update's payload: decisions on several parked calls, applied all or none.
 * Calls it does not name stay parked.
 */
export declare const ApprovalBatchSchema: z.ZodObject<{
    decisions: z.ZodArray<z.ZodObject<{
        callId: z.ZodString;
        decision: z.ZodEnum<{
            reject: "reject";
            approve: "approve";
            approve_always: "approve_always";
            reject_always: "reject_always";
        }>;
        reason: z.ZodOptional<z.ZodString>;
        approver: z.ZodOptional<z.ZodString>;
        signature: z.ZodOptional<z.ZodString>;
        expiresAt: z.ZodOptional<z.ZodISODateTime>;
        scope: z.ZodOptional<z.ZodEnum<{
            tool: "tool";
        }>>;
        prefix: z.ZodOptional<z.ZodString>;
        arguments: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
    }, z.core.$strip>>;
}, z.core.$strip>;

export declare type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/**
 * The one JSON object the `approval` signal and the `decideApproval` update carry. `callId`,
 * `decision`, `reason`, `approver`, `signature` and `expiresAt` are a contract with plain Temporal clients.
 */
export declare const ApprovalDecisionSchema: z.ZodObject<{
    callId: z.ZodString;
    decision: z.ZodEnum<{
        reject: "reject";
        approve: "approve";
        approve_always: "approve_always";
        reject_always: "reject_always";
    }>;
    reason: z.ZodOptional<z.ZodString>;
    approver: z.ZodOptional<z.ZodString>;
    signature: z.ZodOptional<z.ZodString>;
    expiresAt: z.ZodOptional<z.ZodISODateTime>;
    scope: z.ZodOptional<z.ZodEnum<{
        tool: "tool";
    }>>;
    prefix: z.ZodOptional<z.ZodString>;
    arguments: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
}, z.core.$strip>;

/** An approval handler registered on the worker: `createAgentWorker({ approvalHandlers: { name: fn } })`. */
export declare type ApprovalHandlerFunction = (request: ApprovalRequest) => ApprovalHandlerVerdict | Promise<ApprovalHandlerVerdict>;

export declare interface ApprovalHandlerVerdict {
    verdict: 'allow' | 'reject' | 'ask';
    reason: string;
}

/** A call that would park, as an approval handler sees it. */
export declare interface ApprovalRequest {
    agent: string;
    task: string;
    tool: string;
    input: unknown;
    /** Why the policy asks. */
    reason: string;
    /** What the model said alongside the call. */
    context?: string;
    /** For a shell call, its simple commands. */
    commands?: string[];
}

export declare type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;

/**
 * One approval rule. A bare string names a tool (or "*" for every tool). The object form can also
 * match the call:
 * - `command` (shell only): words compared with each simple command the worker's shell parser found
 *   in the call, so chaining, extra flags or spacing cannot slip past (see src/core/approvals/shell/);
 * - `argumentsMatch`: a regular expression tested against one argument (`argument`, e.g. "command")
 *   or, without it, against the JSON of all arguments. For `shell` it is tested against each simple
 *   command's own text as well, so an allow regex cannot approve a chained command either;
 * - `writes` (allow rules only): the calls it lets run may change the workspace. Without it they run
 *   with the workspace read-only, so an allow rule that a hostile command slips past can at worst read.
 * - `network` (allow rules only): the calls it lets run may use the network, if the run allows it
 *   (`network` of the run or the agent). Without it they have none, whatever the run says, so a
 *   hostile command that slips past the rule cannot send what it read anywhere.
 */
export declare const ApprovalRuleSchema: z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
    tool: z.ZodString;
    argument: z.ZodOptional<z.ZodString>;
    argumentsMatch: z.ZodOptional<z.ZodString>;
    command: z.ZodOptional<z.ZodString>;
    writes: z.ZodOptional<z.ZodBoolean>;
    network: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strip>]>;

/**
 * A person's decision on a parked tool call. A signal because approvals must work from any Temporal
 * client (the `temporal` CLI, the Web UI) and while no worker is running: the server stores it.
 * The payload is validated inside the workflow; a malformed one is recorded and ignored.
 */
export declare const approvalSignal: SignalDefinition<[{
callId: string;
decision: "reject" | "approve" | "approve_always" | "reject_always";
reason?: string | undefined;
approver?: string | undefined;
signature?: string | undefined;
expiresAt?: string | undefined;
scope?: "tool" | undefined;
prefix?: string | undefined;
arguments?: Record<string, unknown> | undefined;
}], string>;

/** An approver key cannot be made or used: a name unfit for a file name, a key that exists, an unreadable key file. */
export declare class ApproverKeyError extends DurableAgentError {
    readonly name = "ApproverKeyError";
    readonly code = "APPROVER_KEY_INVALID";
    readonly retryable = false;
}

/** `$AGENT_KEYS_DIR`, else `$XDG_CONFIG_HOME/durable-agent/keys`, else `~/.config/durable-agent/keys`. */
export declare function approverKeysDir(env?: NodeJS.ProcessEnv): string;

/**
 * The approver registry (AGENT_APPROVERS_FILE) cannot be used: missing, not JSON, or an entry that is
 * not an Ed25519 public key. Raised when the worker starts, so it never runs with a registry it
 * misread; the message names the file, the entry and what to fix. Not retryable.
 */
export declare class ApproverRegistryError extends DurableAgentError {
    readonly name = "ApproverRegistryError";
    readonly code = "APPROVER_REGISTRY_INVALID";
    readonly retryable = false;
}

/** The registry named by AGENT_APPROVERS_FILE, or undefined when it is unset or empty (signatures off). */
export declare function approverRegistryFromEnv(env: NodeJS.ProcessEnv): Record<string, string> | undefined;

/** sha256 (hex) of the canonical JSON of a call's arguments, as the signer and the verifier compute it. */
export declare function argumentsHash(input: unknown): string;

/**
 * The audit log writer. Each line is one JSON record that carries its 1-based line number (`seq`)
 * and the SHA-256 of the line before it (`prev`), so an edited, removed or inserted line breaks the
 * chain where it happened; `<file>.head` and its copy in the head folder (AGENT_AUDIT_HEAD_DIR) hold
 * the last line's hash, so an edited last line or a cut-off end is caught too (see `verifyAuditFile`).
 *
 * `append` resolves only once the line is written and fsynced, so a caller that records a decision
 * before acknowledging it knows the record survives a crash. Appends are queued, so concurrent calls
 * get consecutive seqs in the order they were made.
 *
 * One file belongs to one worker process. Two processes appending to one file would each extend the
 * chain from the end they last saw, writing two lines with the same seq and prev: the log would be
 * broken at once. `open` takes `<file>.lock` (our pid, created exclusively) to catch that mistake on
 * one host; by default each worker process gets its own file (`auditLogPathFromEnv`). The file is
 * created with its first line, so a worker that recorded nothing leaves no empty log behind.
 */
export declare class AuditChain {
    readonly file: string;
    readonly headDir: string;
    private readonly releaseLock;
    private seq;
    private prev;
    private queue;
    private failure;
    private closing;
    private handle;
    private constructor();
    /**
     * Opens the log (created with its first line) and continues its chain. Refuses with
     * AuditLogCorruptError when the file does not end in a valid record, or does not match its head or
     * the head's copy (lines cut, a head deleted or older than the log), since appending would extend a
     * chain that is already broken and rewriting the head would hide the cut; and with
     * AuditLogLockedError when another live process has it open.
     */
    static open(file: string, options?: {
        headDir?: string;
    }): Promise<AuditChain>;
    /** Writes one record and fsyncs it; resolves with the record as written. */
    append(entry: AuditEntry): Promise<AuditRecord>;
    /** Waits for queued appends, then closes the file and releases the lock. */
    close(): Promise<void>;
    private write;
}

/**
 * What a caller hands to the chain: a record without the fields the chain fills in. `arguments` may
 * be the raw tool input; the chain digests it when large, so no caller can forget to.
 */
export declare type AuditEntry = Omit<AuditRecord, 'v' | 'seq' | 'prev' | 'arguments' | 'editedArguments'> & {
    arguments?: unknown;
    editedArguments?: unknown;
};

export declare type AuditRecord = z.infer<typeof AuditRecordSchema>;

/**
 * Strict where the chain depends on it (v, seq, at, prev, kind) and in the decision, permissive for
 * the rest, so a writer that adds a field does not make older verifiers call the log broken.
 */
export declare const AuditRecordSchema: z.ZodObject<{
    v: z.ZodLiteral<2>;
    seq: z.ZodNumber;
    at: z.ZodISODateTime;
    prev: z.ZodString;
    kind: z.ZodEnum<{
        mode: "mode";
        decision: "decision";
        call: "call";
    }>;
    run: z.ZodString;
    runId: z.ZodOptional<z.ZodString>;
    agent: z.ZodString;
    iteration: z.ZodNumber;
    tool: z.ZodString;
    callId: z.ZodString;
    arguments: z.ZodOptional<z.ZodUnion<readonly [z.ZodObject<{
        digest: z.ZodString;
        size: z.ZodNumber;
        preview: z.ZodString;
    }, z.core.$strict>, z.ZodJSONSchema]>>;
    decision: z.ZodOptional<z.ZodEnum<{
        reject: "reject";
        approve: "approve";
        approve_always: "approve_always";
        reject_always: "reject_always";
        timed_out: "timed_out";
        policy_allow: "policy_allow";
        policy_reject: "policy_reject";
        handler_allow: "handler_allow";
        handler_reject: "handler_reject";
        guardrail_reject: "guardrail_reject";
        outcome_unknown: "outcome_unknown";
    }>>;
    approver: z.ZodOptional<z.ZodString>;
    verified: z.ZodOptional<z.ZodBoolean>;
    via: z.ZodOptional<z.ZodString>;
    reason: z.ZodOptional<z.ZodString>;
    requestedBy: z.ZodOptional<z.ZodString>;
    outcome: z.ZodOptional<z.ZodEnum<{
        error: "error";
        success: "success";
        unknown: "unknown";
        not_run: "not_run";
    }>>;
    editedArguments: z.ZodOptional<z.ZodUnion<readonly [z.ZodObject<{
        digest: z.ZodString;
        size: z.ZodNumber;
        preview: z.ZodString;
    }, z.core.$strict>, z.ZodJSONSchema]>>;
    mode: z.ZodOptional<z.ZodString>;
    previousMode: z.ZodOptional<z.ZodString>;
    durationMs: z.ZodOptional<z.ZodNumber>;
    idempotencyKey: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;

export declare type AuditVerification = 
/** `lastLineChecked`: both heads vouched for the last line (always true when `ok`; kept for callers of version 2). */
    {
    ok: true;
    lines: number;
    lastLineChecked: boolean;
}
/** `line` is the first line that is broken, or missing; `reason` is worded to follow "line N: ". */
| {
    ok: false;
    line: number;
    reason: string;
    lines: number;
};

/** The agents every worker serves unless it is given its own list. */
export declare const builtinAgents: AgentDefinitionInput[];

export declare interface BuiltinHandlers {
    /** Pass these to `createAgentWorker({ lifecycleHandlers })`. */
    handlers: LifecycleHandler[];
    metrics: MetricsCollector;
    /** The Prometheus endpoint, when `AGENT_METRICS_PORT` is set. */
    metricsServer?: MetricsServer;
    /** Stops the endpoint. */
    close(): Promise<void>;
}

/** The tools every worker has. Agents pick from these (and from custom tools) by name. */
export declare const builtinTools: readonly Tool[];

export declare type CallApproval = z.infer<typeof CallApprovalSchema>;

/**
 * Who let a call run, as the tool activity receives it for the audit line written when the call ends:
 * the deciding record's fields, and who sent the follow-up the call came from.
 */
export declare const CallApprovalSchema: z.ZodObject<{
    decision: z.ZodEnum<{
        reject: "reject";
        approve: "approve";
        approve_always: "approve_always";
        reject_always: "reject_always";
        timed_out: "timed_out";
        policy_allow: "policy_allow";
        policy_reject: "policy_reject";
        handler_allow: "handler_allow";
        handler_reject: "handler_reject";
        guardrail_reject: "guardrail_reject";
        outcome_unknown: "outcome_unknown";
    }>;
    approver: z.ZodOptional<z.ZodString>;
    verified: z.ZodOptional<z.ZodBoolean>;
    via: z.ZodEnum<{
        signal: "signal";
        timeout: "timeout";
        update: "update";
        policy: "policy";
        handler: "handler";
        guardrail: "guardrail";
    }>;
    requestedBy: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;

/**
 * Checks a signed decision, reply or message against the approver registry (name to raw public key
 * as hex). With no registry (AGENT_APPROVERS_FILE unset) everything passes, as before signatures
 * existed. With one, `signer` must be registered, `signature` must be that key's signature over
 * `signedText(message)`, and `message.expiresAt` must lie ahead of `now` (and not too far ahead).
 * `message` is built by the verifier from the run's own state; only its decision fields and expiry
 * came from the sender. `legacy` is the v1 text the same payload would have signed, to name an old
 * signature as such.
 */
export declare function checkSignature(args: {
    registry: Readonly<Record<string, string>> | undefined;
    signer: string | undefined;
    signature: string | undefined;
    /** The message with the sender's `expiresAt`, or undefined when the payload carried none. */
    message: SignedMessage | undefined;
    now: number;
    legacy?: string;
    /** What is signed, for the wording when `message` is undefined. */
    kind?: SignedMessage['kind'];
}): SignatureCheck;

/**
 * Without bwrap, what keeps a tool's processes from outliving the worker.
 *
 * `pid-namespace` prefixes the command with `setpriv --pdeathsig KILL unshare --pid --fork
 * --kill-child --mount-proc`: setpriv asks the kernel to SIGKILL it (by then exec'd into unshare)
 * when the worker dies; unshare's --kill-child does the same for its forked child, which is PID 1 of
 * a new PID namespace; and when PID 1 of a namespace dies the kernel kills every process in it, even
 * ones that detached with setsid or double-forked. Killing the unshare process on timeout or abort
 * ends the whole tree the same way. Verified by experiment: SIGKILL the worker and `sleep` children
 * are gone; without the prefix they are reparented and keep running.
 *
 * `process-group` is the fallback (not Linux, or no namespaces allowed): the command leads its own
 * process group, killed on timeout, abort and exit. It cannot catch a process that left the group
 * (setsid). If the worker itself is SIGKILLed, only the watch of liveness-gate.ts kills the group.
 */
export declare type ChildGuard = {
    kind: 'pid-namespace';
    prefix: string[];
} | {
    kind: 'process-group';
    reason: string;
};

/**
 * The settings of the clients (agentctl and the console it serves), parsed from the environment once,
 * when the CLI starts (cli-context.ts), and passed down: commands read these fields, not
 * `process.env`. A bad value stops the CLI before it connects (ClientSettingsError), naming each
 * variable. The variables are listed, with defaults and meanings, in settings-catalog.ts.
 */
export declare interface ClientSettings {
    /** TEMPORAL_ADDRESS/NAMESPACE/TASK_QUEUE/TLS*, profiles, and the payload codec (AGENT_ENCRYPTION_KEY). */
    temporal: TemporalSettings;
    /** Who decides when `--approver` is not given: USER, else USERNAME, else "cli". */
    approver: string;
    /** AGENT_KEYS_DIR (or the XDG default): where `agentctl keys` keeps approver private keys. */
    keysDir: string;
    /** The encryption keys for `agentctl codec-server`, and AGENT_CODEC_TOKEN, its bearer token. */
    codec: {
        keys?: EncryptionKeys;
        token?: string;
    };
    /** What `agentctl audit verify` checks by default: AGENT_AUDIT_LOG (undefined when off or unset), AGENT_AUDIT_DIR, AGENT_AUDIT_HEAD_DIR. */
    audit: {
        log?: string;
        dir: string;
        headDir: string;
    };
    /** OpenTelemetry export of the spans a client starts (OTEL_EXPORTER_OTLP_*). */
    tracing?: TracingSettings;
    /** The console's own variables (AGENT_CONSOLE_*, TEMPORAL_UI_URL, ...), under its flags. */
    console: ConsoleEnvSettings;
}

/** One or more client settings are wrong; the message names each variable, what was wrong and what to do. */
export declare class ClientSettingsError extends DurableAgentError {
    readonly problems: string[];
    readonly name = "ClientSettingsError";
    readonly code = "CLIENT_SETTINGS_INVALID";
    readonly retryable = false;
    constructor(problems: string[]);
}

export declare type CommandPattern = z.infer<typeof CommandPatternSchema>;

/** An approval rule for the `shell` tool, already split into words by `parseCommandPattern`. */
export declare const CommandPatternSchema: z.ZodObject<{
    pattern: z.ZodString;
    words: z.ZodArray<z.ZodString>;
}, z.core.$strip>;

export declare type Completion = z.infer<typeof CompletionSchema>;

export declare const CompletionSchema: z.ZodObject<{
    summary: z.ZodString;
    status: z.ZodEnum<{
        success: "success";
        partial: "partial";
        blocked: "blocked";
    }>;
    next_steps: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;

/**
 * Connects to Temporal, turning a refused connection into an error a person can act on. `settings`
 * default to the client settings of `process.env` (tracing included); `tracing` is the client
 * settings' OpenTelemetry export (off when undefined).
 */
export declare function connectClient(settings?: TemporalSettings, tracing?: TracingSettings): Promise<{
    client: Client;
    close(): Promise<void>;
}>;

/** The console's options that come from the environment; each is optional, the console's flags win. */
export declare interface ConsoleEnvSettings {
    host?: string;
    hostNames?: string[];
    port?: number;
    localUser?: string;
    usersFile?: string;
    workspace?: string;
    uiBaseUrl?: string;
    taskQueue?: string;
    modelPricesFile?: string;
    models?: Record<string, string>;
}

export declare class ConsoleLifecycleLogger implements LifecycleHandler {
    private readonly options;
    constructor(options?: {
        verbose?: boolean;
        includeTimestamps?: boolean;
        write?: (line: string) => void;
    });
    handle(event: LifecycleEvent): void;
}

/** A file the API put into the code execution container (`container_upload`), kept as it came. */
export declare interface ContainerUploadBlock {
    type: 'container_upload';
    file_id: string;
    [field: string]: unknown;
}

export declare type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ApiBlock;

export declare type ContextBudget = z.infer<typeof ContextBudgetSchema>;

/** How much of the model's context window a run may fill before older turns are summarized. */
export declare const ContextBudgetSchema: z.ZodObject<{
    windowTokens: z.ZodDefault<z.ZodNumber>;
    targetShare: z.ZodDefault<z.ZodNumber>;
    keepRecentTurns: z.ZodDefault<z.ZodNumber>;
}, z.core.$strip>;

export declare interface ConversationMessage {
    role: 'user' | 'assistant';
    content: string | ContentBlock[];
}

/**
 * Where model activities keep a run's conversation between calls, so the workflow sends only what
 * changed instead of the whole conversation on every turn (which makes history grow with the square
 * of the run length). The store is a cache, not the source of truth: the workflow holds the
 * conversation, and when a store does not have what the workflow expects (another machine, a restart)
 * the activity says so and the workflow sends everything once. Entries belong to a run (`owner`, its
 * workflow id) and are deleted when the run closes.
 */
export declare interface ConversationStore {
    /**
     * The conversation kept under `key`. With `tag`, a store that keeps several versions returns the one
     * that write produced (see PostgresConversationStore); the others return their latest and let the
     * caller compare tags.
     */
    load(key: string, owner?: string, tag?: string): Promise<StoredConversation | undefined>;
    save(key: string, conversation: StoredConversation, owner?: string): Promise<void>;
    /** Forgets every entry of a run. */
    deleteRun(owner: string): Promise<void>;
    /** Checks the store can be used (and creates what it needs) before the worker polls; optional. */
    prepare?(): Promise<void>;
    /** Releases connections when the worker stops; optional. */
    close?(): Promise<void>;
}

/**
 * Checks every agent and tool once, when the worker starts: an unknown or duplicate tool name, a
 * clash with a control tool, an unknown MCP server or an invalid definition throws
 * `AgentDefinitionError`, so a broken deployment never starts polling.
 */
export declare function createAgentRegistry(definitions: AgentDefinitionInput[], tools: readonly Tool[], options?: RegistryOptions): AgentRegistry;

/**
 * Builds a worker for the agent task queue. Everything that can be wrong with the configuration is
 * checked before anything connects to Temporal: the configuration file, its MCP servers (started
 * here, so their tools are known), agent and tool definitions (and their command rules), the
 * sandbox (never silently downgraded), the approver registry, the conversation store and where the
 * audit log lives. Then the search attributes are registered.
 */
export declare function createAgentWorker(options?: AgentWorkerOptions): Promise<AgentWorker>;

/** Makes a key pair for `name` and writes the private key (mode 0600) to `<dir>/<name>.pem`. */
export declare function createApproverKey(name: string, options?: {
    dir?: string;
    force?: boolean;
}): CreatedApproverKey;

/**
 * The metrics collector (and its endpoint, when the worker settings' `observability.metrics` is set,
 * from AGENT_METRICS_PORT/HOST), plus any handlers the caller adds (such as the console logger). Shared by
 * `npm run worker` and `npm start` so both behave the same. The audit log is not a lifecycle handler:
 * it is written by the activities themselves, before each decision or call is acknowledged (see
 * src/runtime/audit/).
 */
export declare function createBuiltinHandlers(
/** `settings.observability.metrics`: where to serve the endpoint; off when undefined. */
endpoint: {
    port: number;
    host: string;
} | undefined, extra?: LifecycleHandler[], 
/** Where the Temporal runtime serves its own metrics, forwarded on our endpoint (see observability/runtime.ts). */
temporalMetricsUrl?: string): Promise<BuiltinHandlers>;

export declare interface CreatedApproverKey {
    name: string;
    privateKeyPath: string;
    publicKeyPem: string;
    /** The entry to merge into the worker's AGENT_APPROVERS_FILE. */
    registryEntry: Record<string, string>;
}

/**
 * Decisions on several parked calls of a turn, applied all or none: if one is refused nothing changes
 * and the refusal names the call and why. An update only: the caller needs to know which.
 */
export declare const decideApprovalsUpdate: UpdateDefinition<DecisionOutcome, [{
decisions: {
callId: string;
decision: "reject" | "approve" | "approve_always" | "reject_always";
reason?: string | undefined;
approver?: string | undefined;
signature?: string | undefined;
expiresAt?: string | undefined;
scope?: "tool" | undefined;
prefix?: string | undefined;
arguments?: Record<string, unknown> | undefined;
}[];
}], string>;

/** The same decision for callers that need an answer: an update, so bad input is refused up front. */
export declare const decideApprovalUpdate: UpdateDefinition<DecisionOutcome, [{
callId: string;
decision: "reject" | "approve" | "approve_always" | "reject_always";
reason?: string | undefined;
approver?: string | undefined;
signature?: string | undefined;
expiresAt?: string | undefined;
scope?: "tool" | undefined;
prefix?: string | undefined;
arguments?: Record<string, unknown> | undefined;
}], string>;

export declare type Decision = z.infer<typeof DecisionSchema>;

/** The decision fields a sender supplies; everything else in the message comes from the run. */
export declare interface DecisionFields {
    callId: string;
    decision: string;
    approver: string;
    scope?: string;
    prefix?: string;
    reason?: string;
    expiresAt: string;
    /** The edited arguments of an approval (the whole new input of the call), when the person changed them. */
    arguments?: unknown;
}

export declare interface DecisionMessage extends RunIdentity {
    v: typeof SIGNED_MESSAGE_VERSION;
    kind: 'decision';
    callId: string;
    /** sha256 (hex) of the canonical JSON of the call's arguments: what the person approved. */
    argumentsHash: string;
    decision: string;
    approver: string;
    scope: string | null;
    prefix: string | null;
    reason: string | null;
    expiresAt: string;
    /**
     * Only on an approval with edited arguments: sha256 (hex) of the canonical JSON of the arguments the
     * person lets run instead. Absent otherwise, so signatures over unedited decisions read as before.
     */
    editedArgumentsHash?: string;
}

export declare function decisionMessage(run: RunIdentity, callArguments: unknown, d: DecisionFields): DecisionMessage;

/** What an update caller learns. */
export declare interface DecisionOutcome {
    applied: boolean;
    message: string;
}

export declare type DecisionRecord = Decision;

/** The run refused the decision or reply (unknown or already decided call, no question waiting, malformed). */
export declare class DecisionRefusedError extends DurableAgentError {
    readonly name = "DecisionRefusedError";
    readonly code = "DECISION_REFUSED";
    /**
     * Whether sending the same decision again may be applied: true when the run had no handler ready
     * (an update that met a run between two links), false when the run refused it on its merits.
     */
    readonly retryable: boolean;
    /** The run's failure type when the refusal came as a Temporal failure (e.g. `DecisionRefused`). */
    readonly failureType: string | undefined;
    constructor(message?: string, options?: {
        cause?: unknown;
        failureType?: string;
        retryable?: boolean;
    });
}

export declare const DecisionSchema: z.ZodObject<{
    callId: z.ZodString;
    tool: z.ZodString;
    decision: z.ZodEnum<{
        reject: "reject";
        approve: "approve";
        approve_always: "approve_always";
        reject_always: "reject_always";
        timed_out: "timed_out";
        policy_allow: "policy_allow";
        policy_reject: "policy_reject";
        handler_allow: "handler_allow";
        handler_reject: "handler_reject";
        guardrail_reject: "guardrail_reject";
        outcome_unknown: "outcome_unknown";
    }>;
    reason: z.ZodOptional<z.ZodString>;
    approver: z.ZodOptional<z.ZodString>;
    verified: z.ZodOptional<z.ZodBoolean>;
    decidedAt: z.ZodString;
    via: z.ZodEnum<{
        signal: "signal";
        timeout: "timeout";
        update: "update";
        policy: "policy";
        handler: "handler";
        guardrail: "guardrail";
    }>;
}, z.core.$strip>;

export declare type DecisionVia = z.infer<typeof DecisionViaSchema>;

/** How a decision arrived: a person's signal or update, the policy, the agent's approval handler, a guardrail, or the approval timeout. */
export declare const DecisionViaSchema: z.ZodEnum<{
    signal: "signal";
    timeout: "timeout";
    update: "update";
    policy: "policy";
    handler: "handler";
    guardrail: "guardrail";
}>;

/**
 * Defines an agent in code and checks it at once: a bad field throws AgentDefinitionError here, at the
 * line that wrote it, not when a worker starts. The definition comes back as written, with its literal
 * types kept (`modelTier: 'balanced'` needs no `as const`), so `AgentClient.start(agent, …)` knows the
 * type of its runs' `output` from the agent's zod `outputSchema`.
 */
export declare function defineAgent<const A extends AgentDefinitionInput>(definition: A): A;

/**
 * Builds a tool from a zod object schema. A bad definition throws here, when the worker builds its
 * registry, not at the first model call that would otherwise be rejected by the API.
 */
export declare function defineTool<S extends z.ZodObject, N extends string = string>(spec: ToolSpec<S, N>): Tool<S, N>;

/** The run `workflowId` (in `handle`'s namespace) as the server describes it. */
export declare function describeRunIdentity(handle: WorkflowHandle, workflowId?: string): Promise<RunIdentity>;

/**
 * The settings the worker started with, one `name: value` per line for the start banner, so an
 * operator sees what this process actually uses. Secrets are masked (settings-catalog.ts marks them).
 * With `served` (what `AgentWorker.describe()` passes), a line whose setting asks for something the
 * worker does not do says so, instead of promising it.
 */
export declare function describeWorkerSettings(settings: WorkerSettings, served?: ServedSettings): string[];

/** A folder of JSON files, one folder per run: share it (a network volume) between workers on several machines. */
export declare class DirectoryConversationStore implements ConversationStore {
    readonly dir: string;
    constructor(dir: string);
    private file;
    load(key: string, owner?: string): Promise<StoredConversation | undefined>;
    save(key: string, conversation: StoredConversation, owner?: string): Promise<void>;
    deleteRun(owner: string): Promise<void>;
}

/**
 * The one base class of every error durable-agent throws at a caller: catch `DurableAgentError` to
 * catch any of them, switch on `code` (stable across releases: it is part of the contract, like the
 * class names) and ask `retryable` whether trying the same thing again later can help (a server that
 * was down, a worker that did not answer) or not (a bad definition, a refused decision).
 *
 * Each subclass fixes its own `code` and `retryable`; `cause` (the standard `Error` option) carries
 * what went wrong underneath, e.g. the Temporal failure an update was refused with.
 */
export declare abstract class DurableAgentError extends Error {
    /** A stable identifier of the kind of error, e.g. `DECISION_REFUSED`. */
    abstract readonly code: string;
    /** Whether the same call may succeed if tried again later, unchanged. */
    abstract readonly retryable: boolean;
    constructor(message?: string, options?: {
        cause?: unknown;
    });
}

/**
 * The keys payloads are encrypted with. `AGENT_ENCRYPTION_KEY` is `<key id>:<base64 of 32 bytes>`
 * (make one with `echo "k1:$(openssl rand -base64 32)"`); the id is
 * stored beside every encrypted payload, so after a rotation the old key, listed in
 * `AGENT_ENCRYPTION_OLD_KEYS` (comma-separated, same form), still opens what it sealed.
 */
export declare interface EncryptionKeys {
    /** The key new payloads are sealed with. */
    current: {
        id: string;
        key: Buffer;
    };
    /** Every key that may open a payload, by id (the current one included). */
    byId: ReadonlyMap<string, Buffer>;
}

/**
 * Decides what happens to one tool call. A shell call is judged command by command: it is rejected
 * if any simple command in it is rejected, allowed only if every one is allowed, and otherwise asks.
 * A command the parser could not fully understand, or one that writes outside the workspace, is
 * never allowed without a person. A reject always wins, so no "always" can run what someone forbade.
 */
export declare function evaluatePolicy(args: PolicyInput): PolicyVerdict;

/**
 * Remembers the keys of recent events so a handler can drop the duplicate a retried workflow task
 * may deliver. Bounded: the oldest keys are forgotten first, because a duplicate arrives within
 * moments of the original, never hours later.
 */
export declare class EventDeduper {
    private readonly capacity;
    private readonly seen;
    constructor(capacity?: number);
    /** True the first time a key is offered, false for every repeat still remembered. */
    firstTime(key: string): boolean;
}

/**
 * Writes a run as a recorded-run file: its histories with payloads decoded by the client's codec, and
 * the bodies a replay needs that only a conversation store keeps (when `bodies` reaches one). What is
 * missing is listed in the file (`bodies.missing`), with where it was looked for; an offline replay
 * does not need attachments, a live one refuses without them.
 */
export declare function exportRecordedRun(client: Client, workflowId: string, bodies?: StoredBodies): Promise<RecordedRunFile>;

/**
 * Named failure types. Each one says what failed and whether retrying can help.
 *
 * Temporal carries failures across the activity/workflow boundary as `ApplicationFailure`s, so the
 * `type` strings below are the contract between activities, the workflow and clients: a client can
 * switch on `failure.cause.type` to tell a bad input from a rejected model request.
 */
export declare const FailureType: {
    /** The workflow input did not match the `agentRun` schema. Not retryable. */
    readonly InvalidRunInput: "InvalidRunInput";
    /** The named agent is not in the worker's registry. Not retryable. */
    readonly UnknownAgent: "UnknownAgent";
    /** The model API refused the request (400/401/403/404/413). Not retryable. */
    readonly ModelRequestRejected: "ModelRequestRejected";
    /** The model API is overloaded, rate limited or unreachable. Retryable with backoff. */
    readonly ModelUnavailable: "ModelUnavailable";
    /** The model activity no longer has the conversation the workflow expected; resend it whole. */
    readonly ConversationStoreMiss: "ConversationStoreMiss";
    /** A run failed for a reason with no more specific type (an activity timed out, a bug). */
    readonly RunFailed: "RunFailed";
    /** A run state handed to `agentRun` (continue-as-new or resume) has an unknown schema version. */
    readonly UnsupportedStateVersion: "UnsupportedStateVersion";
    /** An update's decision could not be applied (an edit that fails the tool's schema, a refused decision of a batch); nothing changed. */
    readonly DecisionRefused: "DecisionRefused";
};

export declare type FailureType = (typeof FailureType)[keyof typeof FailureType];

export declare type FollowUp = z.infer<typeof FollowUpSchema>;

/** A follow-up message to a thread (`userMessage` / `sendMessage`). */
export declare interface FollowUpMessage extends RunIdentity {
    v: typeof SIGNED_MESSAGE_VERSION;
    kind: 'message';
    sender: string;
    text: string;
    expiresAt: string;
}

export declare function followUpMessage(run: RunIdentity, m: {
    sender: string;
    text: string;
    expiresAt: string;
}): FollowUpMessage;

/** The `userMessage` signal's and `sendMessage` update's payload: a follow-up for a thread. */
export declare const FollowUpSchema: z.ZodObject<{
    text: z.ZodString;
    sender: z.ZodOptional<z.ZodString>;
    signature: z.ZodOptional<z.ZodString>;
    expiresAt: z.ZodOptional<z.ZodISODateTime>;
}, z.core.$strip>;

/** Everything needed to start the fork; built without starting anything, so it can be shown or tested. */
export declare interface ForkPlan {
    workflowId: string;
    input: AgentRunInput;
    memo: {
        forkedFrom: string;
        forkedFromRunId: string;
        forkedAtIteration: number;
    };
    /** What happens to the files: a shared workspace is not rolled back; a per-run one is copied as it is now. */
    workspace: 'shared' | 'per-run';
}

/** `planFork`, then starts the fork on `taskQueue`. */
export declare function forkRun(client: Client, workflowId: string, options: {
    iteration: number;
    task?: string;
    taskQueue: string;
}): Promise<{
    plan: ForkPlan;
    handle: WorkflowHandle<AgentRunWorkflow>;
}>;

/** A guardrail function registered on the worker: `createAgentWorker({ guardrails: { name: fn } })`. */
export declare type GuardrailFunction = (subject: GuardrailSubject) => GuardrailVerdict | Promise<GuardrailVerdict>;

/** What a guardrail looks at: the task before the first model call, the completion, or one tool call. */
export declare type GuardrailSubject = {
    on: 'input';
    agent: string;
    task: string;
} | {
    on: 'output';
    agent: string;
    task: string;
    completion: Completion;
} | {
    on: 'tool';
    agent: string;
    task: string;
    tool: string;
    input: unknown;
};

export declare type GuardrailVerdict = {
    pass: true;
} | {
    pass: false;
    reason: string;
};

export declare type IgnoredMessage = z.infer<typeof IgnoredMessageSchema>;

export declare const IgnoredMessageSchema: z.ZodObject<{
    at: z.ZodString;
    kind: z.ZodString;
    reason: z.ZodString;
    payload: z.ZodString;
}, z.core.$strip>;

/** The run input given to `startRun` failed validation; the message lists each problem. */
export declare class InvalidRunRequestError extends DurableAgentError {
    readonly name = "InvalidRunRequestError";
    readonly code = "RUN_REQUEST_INVALID";
    readonly retryable = false;
}

/** Whether `error` is any durable-agent error (also across two copies of the package, by shape). */
export declare function isDurableAgentError(error: unknown): error is DurableAgentError;

/**
 * A lifecycle event: a union by `name`, so a reader that checks the name gets that event's `data`.
 * The workflow hands them to worker-side handlers through a Temporal sink, which does not re-fire them
 * when the workflow is replayed.
 */
export declare type LifecycleEvent = {
    [N in LifecycleEventName]: LifecycleEventOf<N>;
}[LifecycleEventName];

/**
 * The `data` of each lifecycle event, by name. Names and fields are a contract with other clients
 * (docs/guides/lifecycle.md): add optional fields, never rename or remove one. Type literals, not
 * interfaces, so each stays assignable to the checkpoint's `Record<string, unknown>`.
 */
export declare type LifecycleEventData = {
    /** The run resolved its agent (first link only). */
    agentStarted: {
        task: string;
        user: string;
    };
    /** The run ended; `completion` and `iterations`, or `error`; a tripped guardrail says which. */
    agentEnded: {
        status: 'completed' | 'max_iterations' | 'failed' | 'cancelled' | 'guardrail_tripped';
        usage: TokenUsage;
        completion?: Completion;
        completions?: number;
        iterations?: number;
        error?: string;
        guardrail?: string;
        reason?: string;
        step?: string;
    };
    iterationStarted: Record<string, never>;
    /** `usage` is cumulative; `toolCalls` only on a turn without tool calls. */
    iterationCompleted: {
        completed: boolean;
        usage: TokenUsage;
        toolCalls?: number;
    };
    /** `child`: the workflow id of a sub-agent's run (delegate_task). */
    toolStarted: {
        tool: string;
        callId: string;
        arguments: unknown;
        approval?: CallApproval;
        child?: string;
    };
    /**
     * `output`: the first 200 characters; `outcome: 'unknown'` for a call that stopped without an answer;
     * `ranBy: 'api'` for a server tool (web search, ...) the Messages API ran within its reply.
     */
    toolEnded: {
        tool: string;
        callId: string;
        success: boolean;
        durationMs: number;
        arguments: unknown;
        output: string;
        approval?: CallApproval;
        outcome?: 'unknown';
        child?: string;
        ranBy?: 'api';
    };
    approvalRequested: {
        callId: string;
        tool: string;
        input: unknown;
        requestedAt: string;
        iteration: number;
        reason: string;
        context?: string;
    };
    /** The decision as the run records it; `arguments` when the call was refused before a person saw it. */
    approvalDecided: DecisionRecord & {
        arguments?: unknown;
        edited?: {
            original: unknown;
            arguments: unknown;
        };
    };
    /** The run's permission mode was switched (update `setMode`); written to the audit log. */
    modeChanged: {
        from: string;
        to: string;
        by?: string;
        reason?: string;
    };
    /** `retrying` and the attempt fields when an unavailable model is waited out. */
    errorOccurred: {
        message: string;
        type: string;
        retrying?: boolean;
        attempt?: number;
        nextAttemptAt?: string;
    };
    contextCompacted: {
        estimatedTokens: number;
        messagesBefore: number;
        messagesAfter: number;
    };
    agentHandedOff: {
        from: string;
        to: string;
        reason?: string;
    };
    guardrailTripped: {
        guardrail: string;
        reason: string;
        step: string;
    };
    /** A follow-up arrived (its first 200 characters). */
    messageReceived: {
        text: string;
    };
};

/** The lifecycle events a run emits (names are a contract). */
export declare type LifecycleEventName = keyof LifecycleEventData;

/** One event of a given name: the envelope every event shares, and that name's `data`. */
export declare type LifecycleEventOf<N extends LifecycleEventName> = {
    name: N;
    /** Workflow time (deterministic) as an ISO string. */
    at: string;
    workflowId: string;
    runId: string;
    agent: string;
    iteration: number;
    /** A stable key (workflow id + step) so handlers can drop the duplicates a retried task may cause. */
    key: string;
    data: LifecycleEventData[N];
};

/**
 * Implement this to receive a run's lifecycle events on the worker. Handlers run after each workflow
 * activation, outside the workflow sandbox, so they may do I/O. Delivery is best effort and may repeat
 * an event when a workflow task is retried: use `event.key` to drop duplicates where it matters.
 */
export declare interface LifecycleHandler {
    handle(event: LifecycleEvent): void | Promise<void>;
}

/** Name to raw Ed25519 public key as lowercase hex, read from `file`; throws ApproverRegistryError. */
export declare function loadApproverRegistry(file: string): Record<string, string>;

/** What a tool call returned (the MCP spec's `CallToolResult`): content blocks, structured content, whether it failed. */
export declare interface McpCallToolResult {
    content: {
        type: string;
        [key: string]: unknown;
    }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    [key: string]: unknown;
}

/**
 * One MCP server, as the worker sees it: a client that connects on demand and again after the
 * connection dropped (a crashed stdio server is started anew; an HTTP session is opened anew), and
 * the server's tool list, read on every (re)connect and whenever the server says it changed.
 */
export declare class McpConnection {
    readonly server: string;
    readonly config: McpServerConfig;
    private readonly env;
    private readonly host;
    private client;
    private connecting;
    private toolList;
    private stderrTail;
    private launch;
    private stdio;
    /** How many times a connection was made; 1 after start, more after reconnects. */
    connects: number;
    constructor(server: string, config: McpServerConfig, env: NodeJS.ProcessEnv, host: McpHost);
    /** The tools the server offered at its last (re)connect or list change. */
    get tools(): readonly McpToolInfo[];
    get connected(): boolean;
    /** Whether a stdio server runs in the sandbox; known once it was started (false for HTTP servers). */
    get sandboxed(): boolean;
    /** The process the worker started for a stdio server (bwrap when sandboxed), while it runs. */
    get pid(): number | undefined;
    /** What a stdio server last wrote to stderr (empty for HTTP servers). */
    get stderr(): string;
    /** "npx -y some-server" or the URL: how the server is named in messages. */
    get endpoint(): string;
    /** Connects if not connected (one attempt at a time). */
    ensureConnected(timeoutMs: number): Promise<void>;
    /** The live client, connecting first if not connected (one attempt at a time). */
    private liveClient;
    /**
     * Calls one tool. A tool the server no longer lists throws `McpToolGoneError`; a dropped connection
     * rejects the call (the caller reports it) and the next call reconnects.
     */
    callTool(name: string, args: Record<string, unknown>, options?: {
        signal?: AbortSignal;
    }): Promise<McpCallToolResult>;
    close(): Promise<void>;
    private open;
    private transport;
}

/**
 * What the worker knows about its host when it starts stdio MCP servers: the same sandbox mode,
 * process guard and system folders its tool commands use, and the workspace root.
 */
export declare interface McpHost {
    mode: SandboxMode;
    /** In mode none, what keeps processes from outliving the worker (see child-guard.ts). */
    childGuard: ChildGuard | undefined;
    /** Absolute and symlink-resolved. */
    workspaceRoot: string;
    system: readonly SystemPath[];
    /** When the worker is root: the unprivileged user servers run as, as commands do (sandbox-user.ts). */
    runAs?: SandboxUser | undefined;
    /**
     * Protected paths (protected-paths.ts) that existed when the servers started, kept read-only for
     * them: a server is shared by every call and no person approved what it will write.
     */
    protection?: ProtectionMounts | undefined;
}

/**
 * The worker's MCP connections, one per configured server, shared by every run and tool call on the
 * worker. All servers are started (and their tool lists read) before the worker polls: a server that
 * cannot start is a configuration error, reported with what the server printed.
 */
export declare class McpPool {
    private readonly connections;
    private constructor();
    /**
     * `host` is the worker's sandbox (see mcp-sandbox.ts); every stdio server that will run outside it
     * is named in a warning before anything starts.
     */
    static start(servers: McpServersConfig, env: NodeJS.ProcessEnv, host: McpHost, warn?: (message: string) => void): Promise<McpPool>;
    static empty(): McpPool;
    get(server: string): McpConnection | undefined;
    all(): McpConnection[];
    snapshot(): McpServerSnapshot[];
    close(): Promise<void>;
}

export declare type McpServerConfig = z.output<typeof McpServerConfigSchema>;

export declare const McpServerConfigSchema: z.ZodUnion<readonly [z.ZodObject<{
    tools: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        scope: z.ZodOptional<z.ZodEnum<{
            read: "read";
            write: "write";
            execute: "execute";
        }>>;
        idempotent: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>>>;
    timeoutSeconds: z.ZodDefault<z.ZodNumber>;
    command: z.ZodString;
    args: z.ZodDefault<z.ZodArray<z.ZodString>>;
    env: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
    cwd: z.ZodOptional<z.ZodString>;
    sandbox: z.ZodDefault<z.ZodBoolean>;
    network: z.ZodOptional<z.ZodBoolean>;
    folders: z.ZodOptional<z.ZodArray<z.ZodObject<{
        path: z.ZodString;
        writable: z.ZodDefault<z.ZodBoolean>;
    }, z.core.$strict>>>;
}, z.core.$strict>, z.ZodObject<{
    tools: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        scope: z.ZodOptional<z.ZodEnum<{
            read: "read";
            write: "write";
            execute: "execute";
        }>>;
        idempotent: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>>>;
    timeoutSeconds: z.ZodDefault<z.ZodNumber>;
    url: z.ZodURL;
    headers: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
}, z.core.$strict>]>;

export declare type McpServersConfig = z.output<typeof McpServersSchema>;

/** What `agentctl agents` shows of a server. */
export declare interface McpServerSnapshot {
    name: string;
    transport: 'stdio' | 'http';
    endpoint: string;
    connected: boolean;
    tools: string[];
    connects: number;
}

export declare const McpServersSchema: z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodObject<{
    tools: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        scope: z.ZodOptional<z.ZodEnum<{
            read: "read";
            write: "write";
            execute: "execute";
        }>>;
        idempotent: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>>>;
    timeoutSeconds: z.ZodDefault<z.ZodNumber>;
    command: z.ZodString;
    args: z.ZodDefault<z.ZodArray<z.ZodString>>;
    env: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
    cwd: z.ZodOptional<z.ZodString>;
    sandbox: z.ZodDefault<z.ZodBoolean>;
    network: z.ZodOptional<z.ZodBoolean>;
    folders: z.ZodOptional<z.ZodArray<z.ZodObject<{
        path: z.ZodString;
        writable: z.ZodDefault<z.ZodBoolean>;
    }, z.core.$strict>>>;
}, z.core.$strict>, z.ZodObject<{
    tools: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        scope: z.ZodOptional<z.ZodEnum<{
            read: "read";
            write: "write";
            execute: "execute";
        }>>;
        idempotent: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>>>;
    timeoutSeconds: z.ZodDefault<z.ZodNumber>;
    url: z.ZodURL;
    headers: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
}, z.core.$strict>]>>;

/**
 * A tool as the server lists it (the MCP spec's fields the worker reads). Declared here, not taken
 * from the SDK, so the package's public types compile in a project without the SDK installed.
 */
export declare interface McpToolInfo {
    name: string;
    title?: string;
    description?: string;
    inputSchema: {
        type: 'object';
        properties?: Record<string, object>;
        required?: string[];
        [key: string]: unknown;
    };
    annotations?: {
        title?: string;
        readOnlyHint?: boolean;
        destructiveHint?: boolean;
        idempotentHint?: boolean;
        openWorldHint?: boolean;
    };
}

/** A per-process LRU: correct everywhere, efficient when one worker (or a sticky one) serves a run. */
export declare class MemoryConversationStore implements ConversationStore {
    private readonly capacity;
    private readonly entries;
    constructor(capacity?: number);
    load(key: string): Promise<(StoredConversation & {
        owner?: string;
    }) | undefined>;
    save(key: string, conversation: StoredConversation, owner?: string): Promise<void>;
    deleteRun(owner: string): Promise<void>;
    /** How many conversations are kept (for tests). */
    get size(): number;
}

/**
 * Counts what the worker's runs do: tool calls and their execution time per tool, tokens, approvals
 * and errors. Events carry a run's cumulative token usage, so the collector adds the difference to
 * the last figure it saw for that run; a repeated event then adds nothing. The same counts feed
 * `registry` (prom-client), which the metrics endpoint serves in the Prometheus format.
 */
export declare class MetricsCollector implements LifecycleHandler {
    readonly registry: Registry<"text/plain; version=0.0.4; charset=utf-8">;
    private readonly prom;
    private readonly dedupe;
    private readonly usageByRun;
    private runsStarted;
    private readonly runsEnded;
    private iterations;
    private readonly tools;
    private readonly tokens;
    private approvalsRequested;
    private readonly approvalsDecided;
    private readonly errorsByType;
    handle(event: LifecycleEvent): void;
    private recordTool;
    private recordUsage;
    getMetrics(): AgentMetrics;
}

export declare interface MetricsServer {
    /** e.g. http://127.0.0.1:9464/metrics */
    url: string;
    port: number;
    close(): Promise<void>;
}

/** The metrics endpoint could not listen (port taken, bad host); the message says which setting to change. */
export declare class MetricsServerError extends DurableAgentError {
    readonly name = "MetricsServerError";
    readonly code = "METRICS_SERVER_FAILED";
    readonly retryable = false;
}

export declare interface MetricsServerOptions {
    /** 0 picks a free port. */
    port: number;
    /** Loopback by default: the endpoint has no authentication, so exposing it is a deliberate choice. */
    host?: string;
    /**
     * The Temporal worker's own metrics (core's Prometheus endpoint, see observability/runtime.ts),
     * appended to ours so one scrape gets both: `temporal_*` beside `durable_agent_*`.
     */
    temporalMetricsUrl?: string;
}

/**
 * Credentials a program embedding the worker hands over instead of the clouds' default chains
 * (`createAgentWorker({ modelCredentials })`): a role assumed in code, a workload identity, an Entra
 * token. Each replaces only its own provider's chain.
 */
export declare interface ModelCredentials {
    /** AWS credentials for Bedrock's SigV4 signature; default: the AWS SDK's chain (env, profile, SSO, container or instance role). */
    aws?: () => Promise<{
        accessKeyId: string;
        secretAccessKey: string;
        sessionToken?: string;
        expiration?: Date;
    }>;
    /** A google-auth-library AuthClient for Vertex AI; default: Application Default Credentials. */
    google?: {
        getRequestHeaders(url?: string | URL): Promise<Headers>;
        projectId?: string | null;
    };
    /** A Microsoft Entra ID token for Foundry, asked for on every request; default: ANTHROPIC_FOUNDRY_API_KEY. */
    azureADTokenProvider?: () => Promise<string>;
}

export declare type ModelProvider = z.infer<typeof ModelProviderSchema>;

/**
 * A provider cannot be used as configured (its SDK is not installed, a setting or its credentials
 * are missing). Raised while the worker starts, so no worker polls that would fail every model call.
 */
export declare class ModelProviderError extends DurableAgentError {
    readonly provider: ModelProvider;
    readonly name = "ModelProviderError";
    readonly code = "MODEL_PROVIDER_UNUSABLE";
    readonly retryable = false;
    constructor(provider: ModelProvider, problem: string);
}

/**
 * Where the worker reaches Claude: Anthropic's own API, Amazon Bedrock, Google Vertex AI or Microsoft
 * Foundry. Each is served through Anthropic's SDK client for that platform; the names are a contract
 * (AGENT_MODEL_PROVIDER and an agent's `provider` take them).
 */
export declare const ModelProviderSchema: z.ZodEnum<{
    anthropic: "anthropic";
    bedrock: "bedrock";
    vertex: "vertex";
    foundry: "foundry";
}>;

export declare type ModelTier = z.infer<typeof ModelTierSchema>;

export declare const ModelTierSchema: z.ZodEnum<{
    fast: "fast";
    balanced: "balanced";
    powerful: "powerful";
}>;

/** A tool as the Messages API wants it. */
export declare interface ModelToolSpec {
    name: string;
    description: string;
    input_schema: Record<string, unknown>;
}

/** The run has no call waiting for a decision. */
export declare class NoPendingApprovalError extends DurableAgentError {
    readonly name = "NoPendingApprovalError";
    readonly code = "NO_PENDING_APPROVAL";
    readonly retryable = false;
}

/** No worker answered in time: the run's worker is probably down. Retrying once one runs can help. */
export declare class NoWorkerAnsweredError extends DurableAgentError {
    readonly name = "NoWorkerAnsweredError";
    readonly code = "NO_WORKER_ANSWERED";
    readonly retryable = true;
}

/** Parses every client setting from `env`; throws ClientSettingsError listing all that are wrong. */
export declare function parseClientSettings(env: NodeJS.ProcessEnv): ClientSettings;

/** The settings as the schema reads them from the environment, before the worker adds what it resolves itself. */
export declare type ParsedWorkerSettings = z.infer<typeof WorkerSettingsSchema>;

/** Parses every worker setting from `env`; throws WorkerSettingsError listing all that are wrong. */
export declare function parseWorkerSettings(env: NodeJS.ProcessEnv): WorkerSettings;

/** A tool call parked until a person decides. `callId` is the model's tool_use id. */
export declare interface PendingApproval {
    callId: string;
    tool: string;
    input: unknown;
    requestedAt: string;
    iteration: number;
    /** Why the policy asked (e.g. "write tools: approve"). */
    reason: string;
    /** What the model said in the same turn, so the person sees why it wants this. */
    context?: string;
    /** The run that waits for the decision (a sub-agent's, when it is not this one). */
    workflowId: string;
    /** For a shell call: the simple commands the worker's parser found, one line each. */
    commands?: string[];
    /** Who may decide it, when the waiting run restricts that. */
    approvers?: string[];
}

export declare type PendingQuestion = z.infer<typeof PendingQuestionSchema>;

export declare const PendingQuestionSchema: z.ZodObject<{
    callId: z.ZodString;
    question: z.ZodString;
    context: z.ZodOptional<z.ZodString>;
    askedAt: z.ZodString;
}, z.core.$strip>;

/** A question waiting for the user, in this run or in one of its sub-agents' runs. */
export declare interface PendingQuestionView {
    callId: string;
    question: string;
    context?: string;
    askedAt: string;
    workflowId: string;
}

export declare type PermissionMode = z.infer<typeof PermissionModeSchema>;

/**
 * How much a run may do without asking. `default`: the policy decides. `plan`: read tools run and
 * every write or execute call (sub-agents and MCP tools included) is refused at once, without parking.
 * `acceptEdits`: write tools (confined to the workspace) run without asking; commands follow the
 * policy. `dontAsk`: what would ask a person is refused instead, for unattended runs. Reject rules
 * and remembered "never" choices win over every mode.
 */
export declare const PermissionModeSchema: z.ZodEnum<{
    default: "default";
    plan: "plan";
    acceptEdits: "acceptEdits";
    dontAsk: "dontAsk";
}>;

/**
 * Plans a fork of `workflowId` after iteration `iteration`: the new run continues from the state the
 * original had then (read by replaying its history, see fork-point.ts), with the original's whole input
 * (approvers, network, output schema...), under a fresh id, its memo (and its `ForkedFrom` search
 * attribute, where the namespace has it) naming its origin. The original
 * is only read: a running one goes on untouched.
 */
export declare function planFork(client: Client, workflowId: string, options: {
    iteration: number;
    task?: string;
}): Promise<ForkPlan>;

export declare interface PolicyInput {
    tool: string;
    scope: ToolScope;
    input: unknown;
    /** The worker's parse of a shell command; a shell call without one is treated as not understood. */
    analysis?: ShellAnalysis;
    /** True for tools whose calls are shell commands (rules compare their simple commands). */
    isCommand?: boolean;
    run?: ToolApproval;
    agent?: ToolApproval;
    preferences?: readonly PreferenceRule[];
    patterns?: Readonly<Record<string, CommandPattern>>;
    /**
     * Whether a built-in file tool's write to a protected path asks a person (default true). False only
     * while a history from before issue 30 replays (patch `contained-calls`), where such writes went on
     * to the tool, which refused them.
     */
    contained?: boolean;
}

/**
 * What the policy decided. For `allow`: whether the call may change the workspace, and whether it may
 * use the network, each only when every rule or "always" that let it through grants it (`"writes":
 * true`, `"network": true`); defaults never do. For `ask`: `personOnly` when only a person may decide,
 * whatever the mode (a write to a protected path): no mode turns it into an allow.
 */
export declare type PolicyVerdict = {
    action: 'allow';
    reason: string;
    writes: boolean;
    network: boolean;
} | {
    action: 'ask';
    reason: string;
    personOnly?: boolean;
} | {
    action: 'reject';
    reason: string;
};

/**
 * Conversations in a PostgreSQL table every worker can reach, so a run's next model call finds its
 * conversation whichever host picks it up, with no shared filesystem.
 *
 * Unlike the memory and folder stores it keeps each version a model call wrote, keyed by its tag. A
 * worker that dies after saving its reply but before Temporal records the call would otherwise
 * leave the retry a version the workflow never saw: a store miss that makes the workflow resend the
 * whole conversation. Superseded versions are pruned as the run moves on, and `deleteRun` removes
 * the rest when it closes.
 *
 * Errors reaching the database are thrown as `ConversationStoreUnavailableError` (retryable): the
 * model activity is retried with Temporal's backoff until the database is back.
 */
export declare class PostgresConversationStore implements ConversationStore {
    readonly url: string;
    private readonly pool;
    private tableReady;
    constructor(url: string, poolConfig?: Omit<PoolConfig, 'connectionString'>);
    prepare(): Promise<void>;
    load(key: string, owner?: string, tag?: string): Promise<StoredConversation | undefined>;
    save(key: string, conversation: StoredConversation, owner?: string): Promise<void>;
    deleteRun(owner: string): Promise<void>;
    close(): Promise<void>;
    private query;
    /** Creates the table once per process; a failed attempt is forgotten so the next call tries again. */
    private ensureTable;
    private createTable;
    private unavailable;
}

export declare type PreferenceRule = z.infer<typeof PreferenceRuleSchema>;

export declare const PreferenceRuleSchema: z.ZodObject<{
    tool: z.ZodString;
    preference: z.ZodEnum<{
        never: "never";
        always: "always";
    }>;
    match: z.ZodDiscriminatedUnion<[z.ZodObject<{
        kind: z.ZodLiteral<"tool">;
    }, z.core.$strip>, z.ZodObject<{
        kind: z.ZodLiteral<"command">;
        pattern: z.ZodObject<{
            pattern: z.ZodString;
            words: z.ZodArray<z.ZodString>;
        }, z.core.$strip>;
        prefix: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>, z.ZodObject<{
        kind: z.ZodLiteral<"argument">;
        name: z.ZodString;
        value: z.ZodString;
        prefix: z.ZodDefault<z.ZodBoolean>;
    }, z.core.$strip>, z.ZodObject<{
        kind: z.ZodLiteral<"arguments">;
        json: z.ZodString;
    }, z.core.$strip>], "kind">;
    by: z.ZodOptional<z.ZodString>;
    at: z.ZodOptional<z.ZodString>;
    fromWorkflowId: z.ZodOptional<z.ZodString>;
    migrated: z.ZodOptional<z.ZodBoolean>;
    writes: z.ZodOptional<z.ZodBoolean>;
    network: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strip>;

export declare interface ProcessRunner {
    /** The sandbox this runner uses, so callers can report whether runs are sandboxed. */
    readonly mode: SandboxMode;
    /** In mode none, what keeps processes from outliving the worker; undefined under bwrap. */
    readonly childGuard: ChildGuard | undefined;
    /** When the worker is root, who commands run as; file tools hand what they create to this owner. */
    readonly fileOwner: {
        uid: number;
        gid: number;
    } | undefined;
    /** The same user with setpriv, for other processes the worker sandboxes (stdio MCP servers). */
    readonly user: SandboxUser | undefined;
    run(spec: ProcessRunSpec): Promise<ProcessRunResult>;
}

export declare interface ProcessRunResult {
    exitCode: number | null;
    signal: string | null;
    /** stdout and stderr interleaved, up to about twice the output limit. */
    output: string;
    timedOut: boolean;
    aborted: boolean;
    /** Whether the command ran inside bwrap (false in mode none). */
    sandboxed: boolean;
    /** What to tell the model when the command ran into one of its limits. */
    limitHit?: string;
    /** Protected paths the command created although no person approved it; they were removed. */
    removedProtectedPaths: string[];
}

export declare type ProcessRunSpec = z.input<typeof ProcessRunSpecSchema>;

export declare const ProcessRunSpecSchema: z.ZodObject<{
    command: z.ZodString;
    workspace: z.ZodString;
    hiddenPaths: z.ZodDefault<z.ZodArray<z.ZodString>>;
    network: z.ZodDefault<z.ZodBoolean>;
    extraEnvAllow: z.ZodDefault<z.ZodArray<z.ZodString>>;
    permission: z.ZodDefault<z.ZodObject<{
        by: z.ZodEnum<{
            person: "person";
            rule: "rule";
        }>;
        writes: z.ZodBoolean;
        network: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>>;
    limits: z.ZodDefault<z.ZodObject<{
        cpuSeconds: z.ZodDefault<z.ZodNumber>;
        memoryBytes: z.ZodDefault<z.ZodNumber>;
        fileSizeBytes: z.ZodDefault<z.ZodNumber>;
        openFiles: z.ZodDefault<z.ZodNumber>;
        processes: z.ZodDefault<z.ZodNumber>;
        tmpBytes: z.ZodDefault<z.ZodNumber>;
        totalMemoryBytes: z.ZodDefault<z.ZodNumber>;
        totalProcesses: z.ZodDefault<z.ZodNumber>;
        cpuCores: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strict>>;
    timeoutMs: z.ZodNumber;
    signal: z.ZodInstanceOf<AbortSignal>;
    outputLimit: z.ZodNumber;
    heartbeat: z.ZodOptional<z.ZodCustom<(details?: unknown) => void, (details?: unknown) => void>>;
}, z.core.$strip>;

/**
 * The mounts that keep protected paths (src/core/approvals/protected-paths.ts) read-only in a writable
 * workspace, for a call no person approved: every existing protected file or folder is bound read-only
 * onto itself. It cannot be written, and as a mount point it cannot be removed, renamed or replaced
 * either. A `.git` folder is protected whole, so nothing under it (config, commondir, hooks, the
 * rebase todo list) can be changed, and it cannot be renamed away for a planted one.
 *
 * Protected names that do not exist yet (a fresh `.env.local`, a `.pth` file) cannot be covered by a
 * mount without planting an empty file in every folder; the process runner removes those after the
 * command instead (see protectedChanges), before any other call can use them.
 */
export declare interface ProtectionMounts {
    readOnly: string[];
}

export declare type RecordedRunFile = z.infer<typeof RecordedRunFileSchema>;

/**
 * What `agentctl replay --export <id>` writes and `replayRecordedRun` (durable-agent/testing) reads:
 * every link's history, its payloads decoded (so a test needs no keys), and the bodies the history
 * does not carry. Version 1.
 */
export declare const RecordedRunFileSchema: z.ZodObject<{
    format: z.ZodLiteral<"durable-agent.recorded-run">;
    version: z.ZodLiteral<1>;
    workflowId: z.ZodString;
    exportedAt: z.ZodString;
    ending: z.ZodEnum<{
        completed: "completed";
        failed: "failed";
        cancelled: "cancelled";
        timed_out: "timed_out";
        terminated: "terminated";
        parked: "parked";
    }>;
    links: z.ZodArray<z.ZodObject<{
        runId: z.ZodString;
        history: z.ZodObject<{
            events: z.ZodArray<z.ZodUnknown>;
        }, z.core.$loose>;
    }, z.core.$strip>>;
    bodies: z.ZodObject<{
        conversations: z.ZodDefault<z.ZodArray<z.ZodObject<{
            key: z.ZodString;
            tag: z.ZodOptional<z.ZodString>;
            messages: z.ZodArray<z.ZodAny>;
        }, z.core.$strip>>>;
        attachments: z.ZodDefault<z.ZodArray<z.ZodObject<{
            callId: z.ZodString;
            stored: z.ZodObject<{
                messages: z.ZodArray<z.ZodAny>;
                tag: z.ZodString;
            }, z.core.$strip>;
        }, z.core.$strip>>>;
        missing: z.ZodDefault<z.ZodArray<z.ZodString>>;
    }, z.core.$strip>;
}, z.core.$strip>;

/** Reasoning the API encrypted; `data` is opaque and must come back unchanged, like a thinking block. */
export declare interface RedactedThinkingBlock {
    type: 'redacted_thinking';
    data: string;
}

export declare interface RegistryOptions {
    /** The MCP servers the worker connected to; an agent may name them in `mcpServers`. */
    mcpServers?: readonly string[];
}

/** An answer to a `need_more_information` question (`userReply` / `submitReply`). */
export declare interface ReplyMessage extends RunIdentity {
    v: typeof SIGNED_MESSAGE_VERSION;
    kind: 'reply';
    /** The call id of the question answered. */
    callId: string;
    sender: string;
    text: string;
    expiresAt: string;
}

export declare function replyMessage(run: RunIdentity, r: {
    callId: string;
    sender: string;
    text: string;
    expiresAt: string;
}): ReplyMessage;

export declare type ResolvedTool = z.infer<typeof ResolvedToolSchema>;

/** What the workflow knows of one of the agent's tools; the code and schema stay on the worker. */
export declare const ResolvedToolSchema: z.ZodObject<{
    scope: z.ZodEnum<{
        read: "read";
        write: "write";
        execute: "execute";
    }>;
    idempotent: z.ZodBoolean;
    quick: z.ZodOptional<z.ZodBoolean>;
    subjectArgument: z.ZodOptional<z.ZodString>;
    timeoutSeconds: z.ZodOptional<z.ZodNumber>;
}, z.core.$strip>;

/**
 * Runs a worker exactly as `npm run worker` does, from a program of your own: the settings read once
 * and printed (secrets masked), the Temporal runtime installed with its metrics, the metrics endpoint
 * (AGENT_METRICS_PORT), one line per lifecycle event, tracing (OTEL_EXPORTER_OTLP_ENDPOINT) and the
 * hash-chained audit log (AGENT_AUDIT_LOG, or this process's own in AGENT_AUDIT_DIR). It polls until
 * SIGINT or SIGTERM, then closes everything. `createAgentWorker` builds the same worker without the
 * process-wide parts (the runtime, the endpoint, the lifecycle lines); its `describe()` says which.
 */
export declare function runAgentWorker(options?: RunAgentWorkerOptions): Promise<void>;

export declare interface RunAgentWorkerOptions extends AgentWorkerOptions {
    /** Where the banner and the lifecycle lines go (default: `console.log`). */
    log?: (line: string) => void;
}

/** A run did not complete (it failed, was cancelled, terminated or timed out) when its result was asked for. */
export declare class RunDidNotCompleteError extends DurableAgentError {
    readonly name = "RunDidNotCompleteError";
    readonly code = "RUN_DID_NOT_COMPLETE";
    readonly retryable = false;
    /** How the run ended (`failed` with its failure type and message, `cancelled`, ...), when known. */
    readonly outcome: RunOutcome | undefined;
    constructor(message?: string, options?: {
        cause?: unknown;
        outcome?: RunOutcome;
    });
}

/**
 * The run ended while a caller waited for something of it (an approval, a question): nothing more
 * will come. `cause` is the run's failure when it failed; `outcome` says how it ended. It extends
 * RunWaitTimeoutError, which it was before it had a class of its own, so existing catches still hold.
 */
export declare class RunEndedWhileWaitingError extends RunWaitTimeoutError {
    readonly name = "RunEndedWhileWaitingError";
    readonly code = "RUN_ENDED_WHILE_WAITING";
    readonly retryable = false;
    readonly outcome: RunOutcome | undefined;
    constructor(message?: string, options?: {
        cause?: unknown;
        outcome?: RunOutcome;
    });
}

/**
 * The run a signature is bound to. `runId` is the first execution's run id: continue-as-new keeps it,
 * so a decision stays valid across links, while a new run started under a reused workflow id has
 * another one, so an old signature cannot be replayed into it.
 */
export declare interface RunIdentity {
    namespace: string;
    workflowId: string;
    runId: string;
}

/** The run cannot be forked at that point (no such run, an iteration it never completed); the message says why. */
export declare class RunNotForkableError extends DurableAgentError {
    readonly name = "RunNotForkableError";
    readonly code = "RUN_NOT_FORKABLE";
    readonly retryable = false;
}

/** The run cannot be resumed (still running, succeeded, failed, or already resumed); the message says why. */
export declare class RunNotResumableError extends DurableAgentError {
    readonly name = "RunNotResumableError";
    readonly code = "RUN_NOT_RESUMABLE";
    readonly retryable = false;
}

/**
 * How a run ended, as the CLI reports it. Temporal hands a cancelled, terminated or failed run to
 * the client as one error type; this tells them apart, so "cancelled" is never shown as a failure.
 */
export declare type RunOutcome<TOutput = unknown> = {
    kind: 'completed';
    workflowId: string;
    result: AgentRunResult<TOutput>;
} | {
    kind: 'failed';
    workflowId: string;
    type?: string;
    message: string;
} | {
    kind: 'cancelled';
    workflowId: string;
} | {
    kind: 'terminated';
    workflowId: string;
    reason?: string;
} | {
    kind: 'timed_out';
    workflowId: string;
};

export declare type RunPhase = z.infer<typeof RunPhaseSchema>;

/**
 * The records a run keeps and its status shows: the phase, token usage, decisions, ignored messages,
 * recent tool calls, the open question, and what a sub-agent waits for. They are part of the
 * checkpoint too, so a change here is a change of the checkpoint schema (bump its version).
 */
export declare const RunPhaseSchema: z.ZodEnum<{
    completed: "completed";
    failed: "failed";
    cancelled: "cancelled";
    starting: "starting";
    running: "running";
    compacting: "compacting";
    waiting_for_model: "waiting_for_model";
    waiting_approval: "waiting_approval";
    waiting_input: "waiting_input";
    idle: "idle";
    max_iterations: "max_iterations";
    guardrail_tripped: "guardrail_tripped";
}>;

/** What the `status` query returns. */
export declare interface RunStatus {
    workflowId: string;
    /** The agent that holds the run now (it changes with a handoff). */
    agent: string;
    /** The agent the run was started with. */
    startedAs: string;
    task: string;
    user: string;
    phase: RunPhase;
    iteration: number;
    maxIterations: number;
    /** The model tier of the agent that holds the run; the worker maps it to a model id (AGENT_MODEL_*). */
    modelTier: string;
    /** The exact model id the run or its agent asked for, when one did (then it wins over the tier's). */
    model?: string;
    usage: TokenUsage;
    recentToolCalls: ToolCallRecord[];
    pendingApprovals: PendingApproval[];
    pendingQuestion?: PendingQuestion;
    /** Every question waiting in this run and its sub-agents' runs. */
    pendingQuestions: PendingQuestionView[];
    /** Sub-agent runs of the current turn. */
    children: {
        callId: string;
        workflowId: string;
        agent: string;
        running: boolean;
    }[];
    /** Where this run sits in a tree of runs (depth 0: started by a person). */
    lineage: {
        depth: number;
        parentWorkflowId?: string;
        rootWorkflowId?: string;
    };
    /** A thread's completions: the latest ones (at most 20; `completionCount` says how many there are in all). */
    completions: Completion[];
    /** How many completions the thread has had (its result returns them all); absent from runs of earlier releases' workers. */
    completionCount?: number;
    /** Whether the run is a thread that takes follow-up messages (its input `followUps`). */
    followUps: boolean;
    /** Set when a guardrail ended the run. */
    guardrail?: {
        name: string;
        reason: string;
        step: string;
    };
    tasks: Task[];
    progress: TaskProgress;
    completion?: Completion;
    decisions: DecisionRecord[];
    ignored: IgnoredMessage[];
    events: LifecycleEvent[];
    compactions: number;
    continueAsNewLinks: number;
    resumedFrom?: string;
    lastError?: string;
    /** While the model API is unavailable: the attempt, the last error and when the next attempt starts. */
    modelWait?: {
        attempt: number;
        lastError?: string;
        nextAttemptAt?: string;
    };
    /** Whether tool commands run in the worker's sandbox (false: unsandboxed, see docs/guides/security.md). */
    sandboxed: boolean;
    /** Who may decide this run's calls; absent when anyone may. */
    approvers?: string[];
    /** Whether decisions must be signed (the worker has an approver registry). */
    signedDecisions: boolean;
    /** The permission mode in force (default, plan, acceptEdits, dontAsk); absent from runs of earlier releases. */
    mode?: PermissionMode;
    warnings: string[];
    /**
     * The text of the model's latest reply (its last 4,000 characters; `chars` in all), so a follower
     * that streamed it from heartbeats can print the end the last heartbeat did not carry.
     */
    modelText?: {
        iteration: number;
        text: string;
        chars: number;
    };
}

/** What a caller waited for (an approval, a question) did not come within the time it gave. */
export declare class RunWaitTimeoutError extends DurableAgentError {
    readonly name: string;
    readonly code: string;
    readonly retryable: boolean;
}

/**
 * How tool processes are isolated. `bwrap` runs each command in bubblewrap with fresh namespaces;
 * `none` runs it directly (with a clean environment) and carries the reason, so the worker can say
 * why it runs unsandboxed.
 */
export declare type SandboxMode = {
    mode: 'bwrap';
    bwrapPath: string;
} | {
    mode: 'none';
    reason: string;
};

/**
 * The process sandbox the worker was configured for cannot be used (bwrap missing, or its smoke test
 * failed). Raised at worker start, never downgraded to an unsandboxed run: retrying cannot help until
 * the host is fixed or AGENT_SANDBOX=none is chosen knowingly.
 */
export declare class SandboxUnavailableError extends DurableAgentError {
    readonly name = "SandboxUnavailableError";
    readonly code = "SANDBOX_UNAVAILABLE";
    readonly retryable = false;
}

/** The unprivileged user commands run as when the worker is root. */
export declare interface SandboxUser {
    name: string;
    uid: number;
    gid: number;
    /** util-linux's setpriv, which drops to the user right before bash starts. */
    setpriv: string;
}

export declare type SavedSummary = z.infer<typeof SavedSummarySchema>;

export declare const SavedSummarySchema: z.ZodObject<{
    keyPoints: z.ZodArray<z.ZodString>;
    nextSteps: z.ZodArray<z.ZodString>;
}, z.core.$strip>;

export declare type ScopeAction = 'allow' | 'ask' | 'reject';

export declare const ScopeActionSchema: z.ZodPreprocess<z.ZodEnum<{
    allow: "allow";
    ask: "ask";
    reject: "reject";
}>, ScopeAction | "approve">;

export declare type ScopePolicy = z.infer<typeof ScopePolicySchema>;

export declare const ScopePolicySchema: z.ZodObject<{
    read: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
        allow: "allow";
        ask: "ask";
        reject: "reject";
    }>, ScopeAction | "approve">>;
    write: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
        allow: "allow";
        ask: "ask";
        reject: "reject";
    }>, ScopeAction | "approve">>;
    execute: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
        allow: "allow";
        ask: "ask";
        reject: "reject";
    }>, ScopeAction | "approve">>;
}, z.core.$strip>;

/** What the worker found and did; `warning` says what an administrator must create when it could not. */
export declare interface SearchAttributeCheck {
    registered: string[];
    missing: string[];
    warning?: string;
}

/** The call that adds search attributes to a namespace (the operator service's, unless replaced). */
export declare type SearchAttributeRegistrar = (request: SearchAttributeRegistration) => Promise<unknown>;

/** What a registrar is asked to add: the run's search attributes and their types, in one namespace. */
export declare type SearchAttributeRegistration = {
    namespace: string;
    searchAttributes: Record<string, temporal.api.enums.v1.IndexedValueType>;
};

/**
 * What a worker does with the settings that are not only read but served or written: the audit log
 * it writes, the metrics endpoint it serves, whether lifecycle events are printed. `createAgentWorker`
 * and `runAgentWorker` fill it in, so their banner says what is on and what is off.
 */
export declare interface ServedSettings {
    /** The audit log this worker writes; undefined when it writes none. */
    auditLog: string | undefined;
    /** The metrics endpoint's URL; undefined when none is served. */
    metricsUrl: string | undefined;
    /** Whether lifecycle events are printed, one line each (`runAgentWorker` and `npm run worker` do). */
    consoleLogger: boolean;
    /** Whether spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT, or a `tracing` option). */
    tracing: boolean;
}

/**
 * What a server tool returned (`web_search_tool_result`, `web_fetch_tool_result`,
 * `code_execution_tool_result`, ...), kept verbatim: its content is the API's business.
 */
export declare interface ServerToolResultBlock {
    type: `${string}_tool_result`;
    tool_use_id: string;
    content: unknown;
    [field: string]: unknown;
}

/**
 * A call of one of the API's server tools (web search, web fetch, code execution). The API ran it
 * itself: the worker never runs it, never asks anyone about it, and only keeps it for the next request.
 * Fields the API adds (`caller`, ...) are kept as they came.
 */
export declare interface ServerToolUseBlock {
    type: 'server_tool_use';
    id: string;
    name: string;
    input: unknown;
    [field: string]: unknown;
}

export declare type SetMode = z.infer<typeof SetModeSchema>;

/** The `setMode` update's payload. */
export declare const SetModeSchema: z.ZodObject<{
    mode: z.ZodEnum<{
        default: "default";
        plan: "plan";
        acceptEdits: "acceptEdits";
        dontAsk: "dontAsk";
    }>;
    by: z.ZodOptional<z.ZodString>;
    reason: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;

/** Switches the run's permission mode for the rest of the run; the switch is written to the audit log. */
export declare const setModeUpdate: UpdateDefinition<DecisionOutcome, [{
mode: "default" | "plan" | "acceptEdits" | "dontAsk";
by?: string | undefined;
reason?: string | undefined;
}], string>;

export declare type ShellAnalysis = z.infer<typeof ShellAnalysisSchema>;

export declare const ShellAnalysisSchema: z.ZodObject<{
    understood: z.ZodBoolean;
    problems: z.ZodArray<z.ZodString>;
    commands: z.ZodArray<z.ZodObject<{
        words: z.ZodArray<z.ZodObject<{
            text: z.ZodString;
            literal: z.ZodBoolean;
            glob: z.ZodBoolean;
        }, z.core.$strip>>;
        assignments: z.ZodArray<z.ZodString>;
        source: z.ZodString;
    }, z.core.$strip>>;
    writes: z.ZodArray<z.ZodObject<{
        target: z.ZodString;
        insideWorkspace: z.ZodBoolean;
    }, z.core.$strip>>;
}, z.core.$strip>;

/** Whether a decision, reply or message may be applied, and if not, a reason a person can act on. */
export declare type SignatureCheck = {
    ok: true;
} | {
    ok: false;
    reason: string;
};

/**
 * `decision`, signed by its approver when they have a key. `pending` reads the run's pending calls
 * (only when there is something to sign): the call's arguments, as the run reports them, are signed.
 */
export declare function signDecision(handle: WorkflowHandle, decision: ApprovalDecision, pending: () => Promise<readonly PendingApproval[]>): Promise<ApprovalDecision>;

/** The version of the signed object. A signature over anything else (the v1 newline text) is refused. */
export declare const SIGNED_MESSAGE_VERSION = 2;

export declare type SignedMessage = DecisionMessage | ReplyMessage | FollowUpMessage;

/** The exact text (then its UTF-8 bytes) an approver signs. */
export declare function signedText(message: SignedMessage): string;

/** `message` for a thread, signed by its sender when they have a key. */
export declare function signFollowUp(handle: WorkflowHandle, message: FollowUp): Promise<FollowUp>;

/** `reply`, naming the question it answers and signed by its sender when they have a key. */
export declare function signReply(handle: WorkflowHandle, reply: UserReply, waiting: () => Promise<readonly PendingQuestionView[]>): Promise<UserReply>;

/**
 * Signs `text` (UTF-8) with the key of `name` and returns the base64 signature, or undefined when
 * there is no key for that name (including names that could not have one), so a caller can fall
 * back to an unsigned decision where the worker does not require signatures.
 */
export declare function signWithApproverKey(name: string, text: string, options?: {
    dir?: string;
}): string | undefined;

/** Serves `GET /metrics` (Prometheus text format) and `GET /metrics.json` (the same figures as JSON). */
export declare function startMetricsServer(collector: MetricsCollector, options: MetricsServerOptions): Promise<MetricsServer>;

/**
 * Starts an `agentRun`. The input is checked here too, so a caller gets a clear error before
 * anything is written to the server; the workflow validates again for clients that skip this.
 */
export declare function startRun(client: Client, input: AgentRunInput, options: {
    taskQueue: string;
    workflowId?: string;
    memo?: Record<string, unknown>;
    searchAttributes?: SearchAttributePair[];
}): Promise<WorkflowHandleWithFirstExecutionRunId<AgentRunWorkflow>>;

/** Read-only view of a run; also answers for closed runs, because the worker replays the history. */
export declare const statusQuery: QueryDefinition<RunStatus, [], string>;

/**
 * What a replay may need beyond the history: conversation messages a store kept that no recorded
 * call wrote (a prompt that started from another run's entry), and the images and documents tools
 * returned (kept in the store, never in the history). Looked up in a conversation store the CLI can
 * reach, or in an export file's `bodies`.
 */
export declare interface StoredBodies {
    conversation(prefix: StoredPrefix): Promise<ConversationMessage[] | undefined>;
    attachments(owner: string, callId: string): Promise<StoredConversation | undefined>;
    /** Where they are looked for, as the error that names a missing one says it. */
    description: string;
}

/**
 * A stored conversation and the tag of the write that produced it. The workflow remembers the tag
 * its last successful model call reported, so a late write by an abandoned attempt (one that timed
 * out but finished anyway) is detected as a miss instead of silently replacing the real reply.
 */
export declare interface StoredConversation {
    messages: ConversationMessage[];
    tag: string;
}

/** Where a recorded model call's prompt started: messages a conversation store kept, which the history does not carry. */
export declare interface StoredPrefix {
    key: string;
    owner?: string;
    tag?: string;
    baseCount: number;
}

/** The same answer, acknowledged: rejected when no question is waiting. */
export declare const submitReplyUpdate: UpdateDefinition<DecisionOutcome, [{
text: string;
callId?: string | undefined;
sender?: string | undefined;
signature?: string | undefined;
expiresAt?: string | undefined;
}], string>;

/**
 * One top-level system folder as the host has it. On merged-/usr systems (Debian 12, Ubuntu, Fedora)
 * /bin, /sbin and /lib* are symlinks into /usr; the sandbox recreates the symlink instead of binding
 * the target a second time, so paths and `ls -l /bin` look the same inside as outside.
 */
export declare interface SystemPath {
    path: string;
    /** The link's target (e.g. `usr/bin`) when the host path is a symlink. */
    symlinkTo?: string;
}

export declare type Task = z.infer<typeof TaskSchema>;

/** How far the run's task list has come, as the status and the CLI show it. */
export declare interface TaskProgress {
    completed: number;
    total: number;
    percent: number;
    /** "Progress: 3/5 tasks (60%)", as the seeds show it. */
    text: string;
    lines: string[];
}

export declare const TaskSchema: z.ZodObject<{
    id: z.ZodString;
    description: z.ZodString;
    status: z.ZodEnum<{
        pending: "pending";
        in_progress: "in_progress";
        completed: "completed";
        failed: "failed";
        skipped: "skipped";
    }>;
    notes: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;

/**
 * How to reach Temporal, read by `@temporalio/envconfig` exactly as the Temporal CLI and the other
 * SDKs read it: the profile named by TEMPORAL_PROFILE (default "default") in the TOML file named by
 * TEMPORAL_CONFIG_FILE (default ~/.config/temporalio/temporal.toml, if it exists), overridden by
 * TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS*, TEMPORAL_GRPC_META_*. One
 * module, so the worker, agentctl, `npm start` and the benchmarks cannot disagree about where the
 * server is.
 */
export declare interface TemporalConnection {
    address: string;
    namespace: string;
    /** Options for both `Connection.connect` (client) and `NativeConnection.connect` (worker). */
    options: Pick<NativeConnectionOptions, 'address' | 'tls' | 'apiKey' | 'metadata'> & {
        address: string;
    };
    /** Where the settings came from, for messages: `profile "prod" in /path/temporal.toml`, or `environment`. */
    source: string;
}

/**
 * Connection settings shared by the worker, agentctl, `npm start` and the benchmarks: where Temporal
 * is (the standard Temporal variables and profiles, see temporal-connection.ts), our own task queue,
 * and how payloads are encoded (encrypted when AGENT_ENCRYPTION_KEY is set, see src/runtime/codec/).
 */
export declare interface TemporalSettings {
    address: string;
    namespace: string;
    taskQueue: string;
    /** TLS, API key and gRPC metadata as well as the address, for `Connection` and `NativeConnection`. */
    connection: TemporalConnection['options'];
    /** Where the connection settings came from, for messages. */
    source: string;
    /** The payload codec chain; every client and worker of a namespace must use the same one. */
    dataConverter: DataConverter;
}

/**
 * The Temporal server could not be reached, by a client or a worker; the message says where it was
 * tried, where that address came from and how to start one or point at another. Retryable: the same
 * call may succeed once the server is up.
 */
export declare class TemporalUnreachableError extends DurableAgentError {
    readonly name = "TemporalUnreachableError";
    readonly code = "TEMPORAL_UNREACHABLE";
    readonly retryable = true;
}

/**
 * The conversation as the Anthropic Messages API sees it, reduced to the blocks this runtime
 * produces. Defined here rather than imported from `@anthropic-ai/sdk` because workflow code must not
 * depend on the SDK package; the shapes are wire-compatible with it.
 */
export declare interface TextBlock {
    type: 'text';
    text: string;
    /**
     * The sources the API cited for this text (a web search answer's `web_search_result_location`s...),
     * kept exactly as sent and sent back so: their `encrypted_index` is the API's business. Absent when
     * the API cited nothing, so plain text keeps the shape it always had.
     */
    citations?: unknown[];
}

/**
 * The model's reasoning, as the API sent it. With thinking on, the API requires every thinking block
 * to come back unchanged (its `signature` verifies it) and first in its assistant turn, so these are
 * stored and resent exactly as received, never rebuilt.
 */
export declare interface ThinkingBlock {
    type: 'thinking';
    thinking: string;
    signature: string;
}

export declare interface TokenUsage {
    inputTokens: number;
    outputTokens: number;
    cacheReadInputTokens: number;
    cacheCreationInputTokens: number;
    /** Of `outputTokens`, those spent thinking (billed as output; absent when the API reported none). */
    thinkingTokens?: number;
    /** Server tool requests the API ran and bills apart, by the API's name (`web_search_requests`, ...). */
    serverToolUse?: Record<string, number>;
}

/** A tool after its definition was checked: the JSON Schema the model sees is derived once, here. */
export declare interface Tool<S extends z.ZodObject = z.ZodObject, N extends string = string> extends ToolSpec<S, N> {
    jsonSchema: Record<string, unknown>;
}

export declare type ToolApproval = z.infer<typeof ToolApprovalSchema>;

/** The run input field `toolApproval`, and an agent's `approval` default, have this shape. */
export declare const ToolApprovalSchema: z.ZodObject<{
    requiresApproval: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
        tool: z.ZodString;
        argument: z.ZodOptional<z.ZodString>;
        argumentsMatch: z.ZodOptional<z.ZodString>;
        command: z.ZodOptional<z.ZodString>;
        writes: z.ZodOptional<z.ZodBoolean>;
        network: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>]>>>;
    alwaysApproved: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
        tool: z.ZodString;
        argument: z.ZodOptional<z.ZodString>;
        argumentsMatch: z.ZodOptional<z.ZodString>;
        command: z.ZodOptional<z.ZodString>;
        writes: z.ZodOptional<z.ZodBoolean>;
        network: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>]>>>;
    alwaysRejected: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
        tool: z.ZodString;
        argument: z.ZodOptional<z.ZodString>;
        argumentsMatch: z.ZodOptional<z.ZodString>;
        command: z.ZodOptional<z.ZodString>;
        writes: z.ZodOptional<z.ZodBoolean>;
        network: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>]>>>;
    scopes: z.ZodOptional<z.ZodObject<{
        read: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
            allow: "allow";
            ask: "ask";
            reject: "reject";
        }>, ScopeAction | "approve">>;
        write: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
            allow: "allow";
            ask: "ask";
            reject: "reject";
        }>, ScopeAction | "approve">>;
        execute: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
            allow: "allow";
            ask: "ask";
            reject: "reject";
        }>, ScopeAction | "approve">>;
    }, z.core.$strip>>;
}, z.core.$strip>;

export declare type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

export declare const ToolCallRecordSchema: z.ZodObject<{
    iteration: z.ZodNumber;
    callId: z.ZodString;
    tool: z.ZodString;
    summary: z.ZodString;
    outcome: z.ZodEnum<{
        error: "error";
        success: "success";
        unknown: "unknown";
        rejected: "rejected";
        running: "running";
        waiting: "waiting";
    }>;
    durationMs: z.ZodOptional<z.ZodNumber>;
    ranBy: z.ZodOptional<z.ZodLiteral<"api">>;
}, z.core.$strip>;

export declare type ToolContentPart = z.infer<typeof ToolContentPartSchema>;

/**
 * What a tool may show the model besides its text: an image (a screenshot, a chart) or a PDF, as
 * base64. The worker keeps them in the conversation store and adds them to the `tool_result` it
 * sends the model; the run's history only carries a line saying what was attached.
 */
export declare const ToolContentPartSchema: z.ZodDiscriminatedUnion<[z.ZodObject<{
    type: z.ZodLiteral<"image">;
    mediaType: z.ZodEnum<{
        "image/png": "image/png";
        "image/jpeg": "image/jpeg";
        "image/gif": "image/gif";
        "image/webp": "image/webp";
    }>;
    data: z.ZodString;
}, z.core.$strip>, z.ZodObject<{
    type: z.ZodLiteral<"document">;
    mediaType: z.ZodLiteral<"application/pdf">;
    data: z.ZodString;
    title: z.ZodOptional<z.ZodString>;
}, z.core.$strip>], "type">;

/** What a running tool gets from the worker besides its arguments. */
export declare interface ToolContext {
    /** Absolute, symlink-resolved workspace root; every path the tool touches must stay inside it. */
    workspaceRoot: string;
    /** Aborted when Temporal cancels the activity or the worker shuts down. */
    signal: AbortSignal;
    /** Tells Temporal the tool is alive; long tools call it so a dead worker is noticed quickly. */
    heartbeat: (details?: unknown) => void;
    /**
     * `"<workflowId>/<callId>"`: the same for every attempt of one tool call (activity retries, a
     * worker that died mid-call), so a tool with side effects elsewhere can recognise a repeat.
     */
    idempotencyKey: string;
    /** The only way a tool may start a process: clean environment, sandboxed when the worker can. */
    processes: ProcessRunner;
    /**
     * Whether processes this call starts may use the network: the run (or agent) allows it and the
     * call's permission grants it (a person approved it, or its rule says `"network": true`).
     */
    network: boolean;
    /** Folders inside the workspace this call's processes must not see, such as other runs' folders. */
    hiddenPaths: readonly string[];
    /**
     * Who let this call run and whether it may write (see `ToolPermission`). Absent only for callers
     * that predate it; tools treat absence as `{ by: 'rule', writes: false }`.
     */
    permission?: ToolPermission;
    /**
     * When the worker runs as root, commands run as an unprivileged user; files and folders a tool
     * creates in the workspace are handed to this owner so those commands can still change them.
     */
    fileOwner?: {
        uid: number;
        gid: number;
    };
}

/** A tool definition is malformed (non-object schema, bad name); raised when the tool is built. */
export declare class ToolDefinitionError extends DurableAgentError {
    readonly name = "ToolDefinitionError";
    readonly code = "TOOL_DEFINITION_INVALID";
    readonly retryable = false;
}

export declare interface ToolMetrics {
    calls: number;
    successes: number;
    failures: number;
    totalMs: number;
    avgMs: number;
    maxMs: number;
}

/**
 * Who let a call run, and what it may do beyond reading the workspace. `by: 'person'` means a person
 * saw and approved this call; `by: 'rule'` means an allow rule, an "always" preference, a mode or a
 * read-only default let it through unseen. A call no person saw must be harmless even when the command
 * analyzer misread it, so everything beyond reading is granted by the rule that allowed it:
 * - `writes`: true for a person's approval, or for a rule or preference that grants writes
 *   (`"writes": true`). The sandbox mounts the workspace read-only when it is false, and nothing but a
 *   person's approval may write a protected path (src/core/approvals/protected-paths.ts).
 * - `network`: true for a person's approval, or for a rule or preference that grants it
 *   (`"network": true`). Only then do the call's processes get the network, and only when the run
 *   (or its agent) has `network` too: the run's setting is the ceiling, the permission the grant.
 *   Absent (a permission recorded before it existed) means what it meant then for a person, the
 *   run's network, and none for a rule: see `networkGranted`.
 */
export declare interface ToolPermission {
    by: 'person' | 'rule';
    writes: boolean;
    network?: boolean;
}

export declare type ToolResult = z.infer<typeof ToolResultSchema>;

export declare const ToolResult: {
    success: (output: string) => ToolResult;
    error: (output: string) => ToolResult;
    complete: (output: string) => ToolResult;
};

export declare interface ToolResultBlock {
    type: 'tool_result';
    tool_use_id: string;
    content: string;
    is_error?: boolean;
}

export declare const ToolResultSchema: z.ZodObject<{
    success: z.ZodBoolean;
    output: z.ZodString;
    shouldContinue: z.ZodBoolean;
    content: z.ZodOptional<z.ZodArray<z.ZodDiscriminatedUnion<[z.ZodObject<{
        type: z.ZodLiteral<"image">;
        mediaType: z.ZodEnum<{
            "image/png": "image/png";
            "image/jpeg": "image/jpeg";
            "image/gif": "image/gif";
            "image/webp": "image/webp";
        }>;
        data: z.ZodString;
    }, z.core.$strip>, z.ZodObject<{
        type: z.ZodLiteral<"document">;
        mediaType: z.ZodLiteral<"application/pdf">;
        data: z.ZodString;
        title: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>], "type">>>;
}, z.core.$strip>;

export declare type ToolScope = z.infer<typeof ToolScopeSchema>;

/** What a tool may touch; the approval policy maps each scope to allow / ask / reject. */
export declare const ToolScopeSchema: z.ZodEnum<{
    read: "read";
    write: "write";
    execute: "execute";
}>;

/** `N`, the tool's name as a literal type, lets `durable-agent/testing` type scripted calls by name. */
export declare interface ToolSpec<S extends z.ZodObject, N extends string = string> {
    name: N;
    description: string;
    scope: ToolScope;
    inputSchema: S;
    execute: (input: z.infer<S>, context: ToolContext) => Promise<ToolResult>;
    /**
     * Safe to run again after a worker died mid-call (default: true for read tools, false otherwise).
     * A call of a tool that is not runs at most once: if its worker dies, the model is told the outcome
     * is unknown instead of the call running twice.
     */
    idempotent?: boolean;
    /** How long one attempt may take before Temporal gives up on it (default 15 minutes). */
    timeoutSeconds?: number;
    /**
     * Finishes within a few seconds (default: true for read tools that declare no `timeoutSeconds`; a
     * tool that needs its own time limit is not quick unless it says so). A call of a quick tool that is also
     * idempotent runs as a local activity, inside the workflow task that decided it: no activity task
     * and no extra workflow task. If the worker dies first, the next one runs it again, which is why
     * only idempotent tools qualify; one that turns out slow is retried as an ordinary activity.
     */
    quick?: boolean;
    /**
     * The argument that says what a call touches (`path` for file tools, `command` for `shell`), so a
     * person's "always"/"never" covers that, not the whole tool.
     */
    subjectArgument?: string;
    /**
     * Reads a call right after the model made it, on the worker, for the approval rules (for `shell`,
     * the parsed command). The result is recorded with the call in the run's history.
     */
    analyze?: (input: z.infer<S>, context: {
        workspaceRoot: string;
    }) => Promise<ShellAnalysis>;
}

export declare interface ToolUseBlock {
    type: 'tool_use';
    id: string;
    name: string;
    input: unknown;
    /**
     * Who made the call when it was not the model directly: code the API ran (programmatic tool
     * calling, `{ type: code_execution_…, tool_id }`). Kept as sent, so the result finds its caller.
     */
    caller?: unknown;
    /** For a member of a toolset, the toolset's name, as the API sent it. */
    toolset_name?: string;
}

/**
 * OpenTelemetry tracing for a worker or client process. Temporal's interceptors (as its
 * `OpenTelemetryPlugin`) carry the trace from the client that starts a run into the workflow, every
 * activity it schedules (local ones too), and the next link after continue-as-new, so a run is one
 * trace; workflow spans leave the sandbox through the plugin's `exporter` sink. Our activities add
 * GenAI spans inside theirs (see genai-spans.ts). The provider is registered globally, with the
 * async-hooks context manager, so those spans nest under the activity's span.
 *
 * Its types are Temporal's and OpenTelemetry's API (a dependency), never the SDK's (optional peers),
 * so that these declarations compile in a project that does not trace.
 */
export declare interface Tracing {
    /** Temporal's `OpenTelemetryPlugin`, for a worker, a client and the workflow bundler. */
    plugin: WorkerPlugin & ClientPlugin & BundlerPlugin;
    tracer: Tracer;
    /** Sends the spans buffered so far (a CLI does this before it exits). */
    forceFlush(): Promise<void>;
    /** Flushes and stops the exporter. */
    shutdown(): Promise<void>;
}

/** Where and how spans are exported: read from the standard OpenTelemetry variables once, with the other settings. */
export declare interface TracingSettings {
    url: string;
    headers: Record<string, string>;
    serviceName?: string;
}

/** An options object has a key nothing reads (a typo, or an environment variable outside `env`). */
export declare class UnknownOptionError extends DurableAgentError {
    readonly name = "UnknownOptionError";
    readonly code = "UNKNOWN_OPTION";
    readonly retryable = false;
}

export declare type UserReply = z.infer<typeof UserReplySchema>;

/** The `userReply` signal's payload. */
export declare const UserReplySchema: z.ZodObject<{
    text: z.ZodString;
    callId: z.ZodOptional<z.ZodString>;
    sender: z.ZodOptional<z.ZodString>;
    signature: z.ZodOptional<z.ZodString>;
    expiresAt: z.ZodOptional<z.ZodISODateTime>;
}, z.core.$strip>;

/** The user's answer to a `need_more_information` question. */
export declare const userReplySignal: SignalDefinition<[{
text: string;
callId?: string | undefined;
sender?: string | undefined;
signature?: string | undefined;
expiresAt?: string | undefined;
}], string>;

/**
 * Checks an audit log written by AuditChain and reports the first broken line: not JSON, not a
 * record, a seq out of order, a `prev` that is not the hash of the line before, or an unfinished last
 * line. The chain cannot vouch for the last line (no line comes after it) nor notice lines cut from
 * the end, so both heads must be present and record exactly the last line: `<file>.head`, and its
 * copy in `headDir` (AGENT_AUDIT_HEAD_DIR). A missing head, a head older than the log, and an empty
 * log all fail. A writer appending while this runs can leave the heads behind the lines read, so
 * they are read again before a head that lags is called older than the log.
 *
 * What this catches is an edit, removal or insertion by someone who could not also rewrite the head
 * copy; the hashes carry no key, so someone who can write both folders can rewrite the log unseen.
 */
export declare function verifyAuditFile(file: string, options?: {
    headDir?: string;
}): Promise<AuditVerification>;

/**
 * True only when `signatureBase64` is a valid Ed25519 signature of `text` under the raw 32-byte key
 * `publicKeyHex`. It never throws: malformed base64, a wrong length or a malformed key all give
 * false, so a bad payload from any client is refused rather than failing the workflow task.
 */
export declare function verifyDecisionSignature(args: {
    publicKeyHex: string;
    text: string;
    signatureBase64: string;
}): boolean;

export declare interface WorkerSettings extends Omit<ParsedWorkerSettings, 'model' | 'sandbox'> {
    /** The sandbox settings, and PATH, where it looks for bwrap (undefined when the env has none; a system variable, not in the catalog). */
    sandbox: ParsedWorkerSettings['sandbox'] & {
        path?: string;
    };
    /** The model client's key and endpoint, and the model id of each tier (AGENT_MODEL_*, defaults applied). */
    model: Omit<ParsedWorkerSettings['model'], 'tiers'> & {
        tiers: Record<ModelTier, string>;
    };
    temporal: TemporalSettings;
    audit: {
        log?: string;
        headDir: string;
    };
    observability: {
        metrics?: {
            port: number;
            host: string;
        };
        /** AGENT_TEMPORAL_METRICS_ADDRESS: where the Temporal runtime's own exporter listens (with metrics on). */
        temporalMetricsAddress?: string;
        /** The OTLP traces URL, kept apart from `tracing` for the banner. */
        otlpTracesUrl?: string;
        tracing?: TracingSettings;
    };
    /**
     * The environment the settings were read from, kept only for what must see variables by any name:
     * the `${VAR}` expansion of the configuration file and MCP servers' env (a configuration may name
     * any variable, so no typed field can hold them). Never printed.
     */
    env: NodeJS.ProcessEnv;
}

/** One or more settings are wrong; the message names each variable, what was wrong and what to do. */
export declare class WorkerSettingsError extends DurableAgentError {
    readonly problems: string[];
    readonly name = "WorkerSettingsError";
    readonly code = "WORKER_SETTINGS_INVALID";
    readonly retryable = false;
    constructor(problems: string[]);
}

export declare const WorkerSettingsSchema: z.ZodObject<{
    model: z.ZodObject<{
        provider: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>, z.ZodTransform<"anthropic" | "bedrock" | "vertex" | "foundry" | undefined, string | undefined>>;
        bedrock: z.ZodObject<{
            region: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            apiKey: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            baseUrl: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            models: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string[], string | undefined>>, z.ZodTransform<{
                [k: string]: string;
            }, string[]>>;
        }, z.core.$strip>;
        vertex: z.ZodObject<{
            region: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            projectId: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            baseUrl: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            models: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string[], string | undefined>>, z.ZodTransform<{
                [k: string]: string;
            }, string[]>>;
        }, z.core.$strip>;
        foundry: z.ZodObject<{
            apiKey: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            resource: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            baseUrl: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            models: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string[], string | undefined>>, z.ZodTransform<{
                [k: string]: string;
            }, string[]>>;
        }, z.core.$strip>;
        apiKey: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        baseUrl: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        tiers: z.ZodObject<{
            fast: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            balanced: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            powerful: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        }, z.core.$strip>;
    }, z.core.$strip>;
    limits: z.ZodObject<{
        maxCachedWorkflows: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<number | undefined, string | undefined>>;
        modelIdleSeconds: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<number, string | undefined>>;
        promptCache: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string, string | undefined>>, z.ZodTransform<"off" | "5m" | "1h", string>>;
    }, z.core.$strip>;
    workspace: z.ZodObject<{
        root: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string, string | undefined>>;
        configFile: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
    }, z.core.$strip>;
    sandbox: z.ZodObject<{
        mode: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        user: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        toolEnv: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string[], string | undefined>>;
        commandCgroups: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>, z.ZodDefault<z.ZodEnum<{
            auto: "auto";
            off: "off";
        }>>>;
        scanMaxEntries: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<number, string | undefined>>;
    }, z.core.$strip>;
    conversationStore: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string, string | undefined>>;
    approversFile: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
}, z.core.$strip>;

/** A path given to a tool would leave the workspace root. */
export declare class WorkspaceEscapeError extends DurableAgentError {
    readonly name = "WorkspaceEscapeError";
    readonly code = "WORKSPACE_ESCAPE";
    readonly retryable = false;
}

/**
 * A tool's schema was built with a zod of another major version than the one durable-agent runs with
 * (its `zod` peer). Raised when the worker starts, instead of the confusing `instanceof` failure the
 * first model call would meet; the message names the tool and both versions.
 */
export declare class ZodVersionMismatchError extends DurableAgentError {
    readonly name = "ZodVersionMismatchError";
    readonly code = "ZOD_VERSION_MISMATCH";
    readonly retryable = false;
}

export { }
