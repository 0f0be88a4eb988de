import { Client } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { QueryDefinition } from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import { SignalDefinition } from '@temporalio/workflow';
import { UpdateDefinition } from '@temporalio/common';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { WorkflowHandle } from '@temporalio/client';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { z } from 'zod';

/** The workflow type every run (and every sub-agent's run) is started with. */
export declare const AGENT_RUN_WORKFLOW_TYPE = "agentRun";

/** What a worker serves: the answer of the `agentCatalog` workflow. */
export declare interface AgentCatalog {
    taskQueue: string;
    /** The configuration file the agents came from (AGENT_CONFIG), if any. */
    configFile?: string;
    agents: CatalogAgent[];
    mcpServers: McpServerSnapshot[];
}

/**
 * The typed client for code that drives runs: start one and get an `AgentRunHandle` for the rest of
 * its life, or attach to one started elsewhere by its workflow id. `AgentClient.connect(options)` takes
 * the worker's connection options over the same settings as agentctl (TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, profiles, the payload codec);
 * `new AgentClient({ client, taskQueue })` uses a client the caller already has.
 */
export declare class AgentClient {
    readonly temporal: Client;
    readonly taskQueue: string;
    private readonly closeConnection?;
    constructor(options: AgentClientOptions, closeConnection?: () => Promise<void>);
    /**
     * Connects to Temporal; close() the client when done. The options are the worker's
     * (`createAgentWorker`): each one given overrides the environment's setting (`env`, default
     * `process.env`: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, TEMPORAL_TLS*,
     * TEMPORAL_API_KEY, profiles, the payload codec). An unknown option is refused (UnknownOptionError).
     */
    static connect(options?: AgentConnectOptions): Promise<AgentClient>;
    /** @deprecated Pass `{ env }`: `AgentClient.connect({ env: myEnv })`. An environment object is still read as before. */
    static connect(env: EnvironmentVariables): Promise<AgentClient>;
    /** Starts a run (the input is checked first: InvalidRunRequestError) and returns its handle. */
    start(input: AgentRunInput, options?: StartOptions): Promise<AgentRunHandle>;
    /**
     * Starts a run of an agent defined with `defineAgent` (by its name; a worker must serve it): the
     * handle's `result().output` has the type of the agent's zod `outputSchema`.
     */
    start<const A extends AgentDefinitionInput>(agent: A, input: Omit<AgentRunInput, 'agent'>, options?: StartOptions): Promise<AgentRunHandle<AgentOutput<A>>>;
    /** The handle of a run started elsewhere (by agentctl, the console, another service); `TOutput` types its output. */
    attach<TOutput = unknown>(workflowId: string): AgentRunHandle<TOutput>;
    /** Closes the connection `connect()` opened; a client passed in stays the caller's. */
    close(): Promise<void>;
}

export declare interface AgentClientOptions {
    /** A connected Temporal client (its namespace and data converter are the runs'). */
    client: Client;
    /** The task queue the agent workers poll (the workers' TEMPORAL_TASK_QUEUE). */
    taskQueue: string;
}

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

/**
 * The type of what an agent's runs return in `result().output`: its zod `outputSchema`'s output, or
 * `unknown` for an agent without one (or with a JSON Schema from a configuration file).
 */
export declare type AgentOutput<A> = A extends {
    outputSchema: infer S;
} ? (S extends z.ZodType ? z.output<S> : unknown) : unknown;

/**
 * One run, for the rest of its life, from client code: follow it, decide its approvals, answer its
 * questions, message a thread, cancel, resume, and read its status and result. A thin layer over the
 * contract's signals, updates and queries (the same ones `agentctl` sends), so runs started elsewhere
 * can be attached to by id. Decisions and replies go as updates: the caller learns whether they were
 * applied (a refusal throws DecisionRefusedError), and they are signed when the person has a key.
 */
export declare class AgentRunHandle<TOutput = unknown> {
    /** The Temporal handle, for anything this class does not cover. */
    readonly temporal: WorkflowHandle<AgentRunWorkflow>;
    private readonly client;
    private readonly taskQueue;
    constructor(
    /** The Temporal handle, for anything this class does not cover. */
    temporal: WorkflowHandle<AgentRunWorkflow>, client: Client, taskQueue: string);
    get workflowId(): string;
    /** The run's status as its `status` query reports it (a worker must answer, within 30 s by default). */
    status(timeoutMs?: number): Promise<RunStatus>;
    /** Follows the run: lifecycle events, approvals and questions as they come, then how it ended. */
    events(options?: RunEventOptions): AsyncGenerator<RunEvent, void, undefined>;
    /** Resolves with the calls waiting for approval as soon as there is at least one. */
    waitForApprovals(options?: WaitOptions): Promise<PendingApproval[]>;
    /** Resolves with the first question waiting for a reply. */
    waitForQuestion(options?: WaitOptions): Promise<PendingQuestionView>;
    /** Approves a waiting call (the only one, unless `callId` names one). */
    approve(options?: DecideOptions): Promise<DecisionOutcome>;
    /** Rejects a waiting call; the model is told it was rejected (and why, with `reason`). */
    reject(options?: DecideOptions): Promise<DecisionOutcome>;
    /** Sends a decision as it is (the `decideApproval` update), signed when its approver has a key. */
    sendDecision(decision: ApprovalDecision): Promise<DecisionOutcome>;
    /** Answers the agent's question (the only one, unless `callId` names one). */
    reply(text: string, options?: {
        callId?: string;
        sender?: string;
    }): Promise<DecisionOutcome>;
    /** Sends a follow-up message to a thread (a run started with `followUps`). */
    sendMessage(text: string, sender?: string): Promise<DecisionOutcome>;
    /** Ends a thread once it has answered (the `closeThread` update). */
    closeThread(): Promise<DecisionOutcome>;
    /** Asks Temporal to cancel the run; it stops at its next step and ends `cancelled`. */
    cancel(): Promise<void>;
    /**
     * Starts the follow-up of an ended run (at its iteration cap, blocked, partial, failed or cancelled)
     * with its whole state; `maxIterations` more when given. Throws RunNotResumableError otherwise.
     */
    resume(options?: {
        maxIterations?: number;
    }): Promise<AgentRunHandle<TOutput>>;
    /** How the run ended (waits for it): completed with its result, failed, cancelled, terminated or timed out. */
    outcome(): Promise<RunOutcome<TOutput>>;
    /** The run's result (waits for it); a run that did not complete throws RunDidNotCompleteError saying how it ended. */
    result(): Promise<AgentRunResult<TOutput>>;
    private decide;
    /** The error for a run that ended while a caller waited: how it ended, and its failure as the cause. */
    private endedWhileWaiting;
    private waitFor;
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

/** Everything `describe` shows: the summary, the policy, the input every firing gets and the counts. */
export declare interface AgentScheduleDescription extends AgentScheduleSummary {
    /** The task queue its runs start on, as the schedule's action names it. */
    taskQueue: string;
    /** `skip`, `buffer_one`, `allow_all`, `cancel_other` (or `buffer_all` / `terminate_other`, set by another tool). */
    overlap: string;
    /** The input each firing starts its run with. */
    input: AgentRunInput;
    /** The workflow id firings start from; Temporal appends each firing's time. */
    workflowIdPrefix: string;
    /** Runs of this schedule that are open now (a run parked on approval is open). */
    openRuns: string[];
    /** Firings that started a run (triggers included). */
    firingsTaken: number;
    /** Firings skipped because a run of the schedule was still open. */
    firingsSkipped: number;
    /** Firings missed while the server was unavailable for longer than the catch-up window. */
    firingsMissed: number;
    /** When the schedule was made (ISO). */
    createdAt: string;
    /** When it was last changed (paused, unpaused...), if ever (ISO). */
    updatedAt?: string;
}

/** What `startSchedule` makes: a name, when it fires, and the run each firing starts. */
export declare interface AgentScheduleOptions {
    /** The schedule's id in the namespace: letters, digits, ".", "_" and "-". */
    name: string;
    /** Five cron fields (minute hour day-of-month month day-of-week) or a shorthand such as @daily. */
    cron: string;
    /** An IANA time zone the cron is read in (default UTC). */
    timezone?: string;
    /** What a firing does while the previous run is still open, parked runs included (default `skip`). */
    overlap?: ScheduleOverlap;
    /** The input every firing starts its run with: agent, task, and any other run-input field (rules, approvers, budget...). */
    input: AgentRunInput;
    /** The task queue the agent workers poll. */
    taskQueue: string;
    /** Create it paused (it fires only once unpaused). */
    paused?: boolean;
    /** A note shown with the schedule's state (e.g. why it was made paused). */
    note?: string;
    /** Recorded in the memo as who made it. */
    createdBy?: string;
    /**
     * Ask a worker of the task queue which agents it serves and refuse an unknown agent (default true).
     * When no worker polls the queue the check cannot be made; the result then says `agentChecked: false`.
     */
    checkAgent?: boolean;
}

/** A schedule as a list shows it. Fields the schedule's memo holds are absent for schedules another tool made. */
export declare interface AgentScheduleSummary {
    /** The schedule's id in the namespace. */
    name: string;
    /** The agent its runs start. */
    agent?: string;
    /** The task its runs are given. */
    task?: string;
    /** The cron expression as it was given (the server keeps only its compiled calendar). */
    cron?: string;
    /** The IANA time zone the cron is read in. */
    timezone: string;
    /** Where its runs go, as recorded when it was made. */
    taskQueue?: string;
    /** Paused schedules do not fire (a trigger still starts a run). */
    paused: boolean;
    /** Why it is paused (or was unpaused), as the person or the server wrote it. */
    note?: string;
    /** The next firing times, soonest first (none while paused). */
    nextFirings: string[];
    /** The latest firings, oldest first. */
    recentFirings: ScheduleFiring[];
}

/** Several calls wait and the person did not say which one; the message lists them. */
export declare class AmbiguousApprovalError extends DurableAgentError {
    readonly name = "AmbiguousApprovalError";
    readonly code = "AMBIGUOUS_APPROVAL";
    readonly retryable = false;
}

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

/** Waits for the run to end (following continue-as-new) and says how it ended. */
export declare function awaitOutcome(handle: WorkflowHandle): Promise<RunOutcome>;

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

export declare interface CatalogAgent {
    name: string;
    description: string;
    modelTier: string;
    maxIterations: number;
    workspace: string;
    approvers?: string[];
    completionTools: string[];
    /** The agent returns a typed result (it has an output schema). */
    typedOutput: boolean;
    mcpServers: string[];
    tools: CatalogTool[];
}

/** One tool of an agent, as `agentctl agents` lists it. */
export declare interface CatalogTool {
    name: string;
    scope: ToolScope;
    idempotent: boolean;
    /** Where it comes from: the runtime, an MCP server, or code given to `createAgentWorker`. */
    source: 'builtin' | 'mcp' | 'custom';
    description: string;
}

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

/** Ends a thread: at once when it is idle, else when the agent next completes. */
export declare const closeSignal: SignalDefinition<[], string>;

/** The same, acknowledged (`agentctl close`). */
export declare const closeThreadUpdate: UpdateDefinition<DecisionOutcome, [], string>;

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

/** Makes a key pair for `name` and writes the private key (mode 0600) to `<dir>/<name>.pem`. */
export declare function createApproverKey(name: string, options?: {
    dir?: string;
    force?: boolean;
}): CreatedApproverKey;

export declare interface CreatedApproverKey {
    name: string;
    privateKeyPath: string;
    publicKeyPem: string;
    /** The entry to merge into the worker's AGENT_APPROVERS_FILE. */
    registryEntry: Record<string, string>;
}

/** The schedule as made, read back from the server (its next firings included). */
export declare interface CreatedSchedule extends AgentScheduleDescription {
    /** Whether a worker confirmed that it serves the agent (false: no worker polled the task queue). */
    agentChecked: boolean;
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

/** How a person decides a call; `callId` may be left out when exactly one call waits. */
export declare interface DecideOptions {
    callId?: string;
    /** Who decides (signed with their key when `agentctl keys create` made one). */
    approver?: string;
    reason?: string;
    /** Remember the choice for later calls: of this tool (`'tool'`), or of a command or path prefix. */
    remember?: 'tool' | {
        prefix: string;
    };
}

export declare type Decision = z.infer<typeof DecisionSchema>;

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

/**
 * Defines an agent in code and checks it at once: a bad field throws AgentDefinitionError here, at the
 * line that wrote it, not when a worker starts. The definition comes back as written, with its literal
 * types kept (`modelTier: 'balanced'` needs no `as const`), so `AgentClient.start(agent, …)` knows the
 * type of its runs' `output` from the agent's zod `outputSchema`.
 */
export declare function defineAgent<const A extends AgentDefinitionInput>(definition: A): A;

/** Deletes a schedule. Its runs that are open go on (a parked one still waits for its decision). */
export declare function deleteSchedule(client: Client, name: string, scope?: ScheduleScope): Promise<{
    openRuns: string[];
}>;

/** The run `workflowId` (in `handle`'s namespace) as the server describes it. */
export declare function describeRunIdentity(handle: WorkflowHandle, workflowId?: string): Promise<RunIdentity>;

/** One agent schedule as it is now: policy, input, next and recent firings, open runs, counts. */
export declare function describeSchedule(client: Client, name: string, scope?: ScheduleScope): Promise<AgentScheduleDescription>;

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

/** An environment object (`process.env`): only upper-case names, so a mistyped option is not taken for one. */
export declare type EnvironmentVariables = {
    readonly [name: Uppercase<string>]: string | undefined;
};

/**
 * Asks a worker of `taskQueue` which agents it serves: runs the tiny `agentCatalog` workflow there.
 * When no worker has polled the queue lately, says so at once instead of waiting for the timeout.
 */
export declare function fetchAgentCatalog(client: Client, taskQueue: string, timeoutMs?: number): Promise<AgentCatalog>;

export declare interface FollowOptions {
    out(line: string): void;
    /** Writes part of a line: with it, the model's text is printed as it streams, under its iteration. */
    write?(fragment: string): void;
    /** Receives the model's text as it streams instead (`--json` prints these as `text_delta` events). */
    onText?(delta: TextDeltaEvent): void;
    /** Receives the model's thinking as it streams; without it, `write` prints it dimmed unless `hideThinking`. */
    onThinking?(delta: ThinkingDeltaEvent): void;
    /** `--no-thinking`: the model's thinking is not shown. */
    hideThinking?: boolean;
    /** How often to read the model's text while it streams. */
    textPollMs?: number;
    /** How often to ask the run for its status. */
    pollMs?: number;
    /** How long one status query may wait for a worker before the follower says none answers. */
    queryTimeoutMs?: number;
    /** Called once for calls that newly wait for approval; returns when they are decided or explained. */
    onApprovals(status: RunStatus, fresh: PendingApproval[]): Promise<void>;
    /** Called once per question the agent asks. */
    onQuestion(status: RunStatus): Promise<void>;
    /** Aborting stops following (the run itself goes on). */
    signal?: AbortSignal;
}

/**
 * How following ended: the run ended, following was stopped, or the run is a thread that answered and
 * now waits for the next message (`idle`): the run goes on, but there is nothing more to follow.
 */
export declare type FollowResult = RunOutcome | {
    kind: 'stopped';
    workflowId: string;
} | IdleThread;

export declare function followRun(client: Client, handle: WorkflowHandle, options: FollowOptions): Promise<FollowResult>;

/**
 * Follows a run by polling its `status` query, as every client does (no history reads, nothing
 * written to the server). The status keeps the latest 30 lifecycle events, so a consumer that stalls
 * longer than that between reads can miss some; a worker's lifecycle handlers see every one. While no
 * worker answers, following waits rather than failing: a worker that restarts is picked up again.
 */
export declare function followRunEvents(handle: WorkflowHandle, options?: RunEventOptions): AsyncGenerator<RunEvent, void, undefined>;

export declare type FollowUp = z.infer<typeof FollowUpSchema>;

/** The `userMessage` signal's and `sendMessage` update's payload: a follow-up for a thread. */
export declare const FollowUpSchema: z.ZodObject<{
    text: z.ZodString;
    sender: z.ZodOptional<z.ZodString>;
    signature: z.ZodOptional<z.ZodString>;
    expiresAt: z.ZodOptional<z.ZodISODateTime>;
}, z.core.$strip>;

export declare interface IdleThread {
    kind: 'idle';
    workflowId: string;
    /** The answer the thread gave last (its latest completion). */
    completion?: Completion;
}

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

/** A schedule cannot be made as asked: a cron or time zone that does not parse, a bad name or overlap; the message says which and what is expected. */
export declare class InvalidScheduleError extends DurableAgentError {
    readonly name = "InvalidScheduleError";
    readonly code = "SCHEDULE_INVALID";
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

export declare interface ListedRun {
    workflowId: string;
    runId: string;
    agent?: string;
    phase?: string;
    execution: string;
    startTime: string;
    closeTime?: string;
}

/** The visibility query for `list`: agent runs, optionally of one agent and in one phase. */
export declare function listQuery(filters: {
    agent?: string;
    phase?: string;
}): string;

/**
 * The agent schedules of the namespace (of one task queue, with `scope`), by name. Read from Temporal's
 * visibility store, which lags a change by a moment; `describeSchedule` reads one schedule as it is.
 */
export declare function listSchedules(client: Client, scope?: ScheduleScope): Promise<AgentScheduleSummary[]>;

/** What `agentctl agents` shows of a server. */
export declare interface McpServerSnapshot {
    name: string;
    transport: 'stdio' | 'http';
    endpoint: string;
    connected: boolean;
    tools: string[];
    connects: number;
}

/** A readable, unique workflow id: agent name plus time and a random suffix. */
export declare function newRunId(agent: string): string;

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

/** Maps the error `handle.result()` threw to an outcome; errors that are not about the run rethrow. */
export declare function outcomeOfError(workflowId: string, error: unknown): RunOutcome;

/** Parses every client setting from `env`; throws ClientSettingsError listing all that are wrong. */
export declare function parseClientSettings(env: NodeJS.ProcessEnv): ClientSettings;

/** Pauses a schedule: no firing until it is unpaused (a trigger still starts a run). */
export declare function pauseSchedule(client: Client, name: string, note?: string, scope?: ScheduleScope): Promise<AgentScheduleDescription>;

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
 * Builds the follow-up of an ended run: one that stopped at its iteration cap, ended blocked or
 * partial, failed or was cancelled. There is one path: the new run continues the earlier run's whole
 * state (conversation, tasks, pending approvals, choices, usage), read with the `checkpoint` query, and
 * its whole input. A closed run's query is answered by a worker replaying its history, so a worker
 * must be running; without one nothing is started. Refuses a run that is still going or succeeded.
 */
export declare function planResume(client: Client, workflowId: string, options?: {
    maxIterations?: number;
    workerTimeoutMs?: number;
}): Promise<ResumePlan>;

export declare function queryStatus(handle: WorkflowHandle, timeoutMs?: number): Promise<RunStatus>;

/** Everything needed to start the follow-up run; built without starting anything, so it can be shown or tested. */
export declare interface ResumePlan {
    workflowId: string;
    input: AgentRunInput;
    memo: {
        resumedFrom: string;
        resumedFromRunId: string;
    };
}

/** `planResume` then `startResumedRun`. */
export declare function resumeRun(client: Client, workflowId: string, options: {
    taskQueue: string;
    maxIterations?: number;
    workerTimeoutMs?: number;
}): Promise<{
    plan: ResumePlan;
    handle: WorkflowHandle<AgentRunWorkflow>;
}>;

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
 * What following a run yields, in the order it is seen: each lifecycle event once, each call that
 * starts waiting for approval and each question once, and last how the run ended (or, for a thread,
 * that it answered and waits for the next message).
 */
export declare type RunEvent = {
    type: 'lifecycle';
    event: LifecycleEvent;
} | {
    type: 'approval';
    pending: PendingApproval;
    status: RunStatus;
} | {
    type: 'question';
    question: PendingQuestionView;
    status: RunStatus;
} | {
    type: 'idle';
    status: RunStatus;
} | {
    type: 'ended';
    outcome: RunOutcome;
};

export declare interface RunEventOptions {
    /** How often the run's status is read (default 300 ms). */
    pollMs?: number;
    /** Stops following (the run goes on); the iteration then just ends. */
    signal?: AbortSignal;
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

export declare type SavedSummary = z.infer<typeof SavedSummarySchema>;

export declare const SavedSummarySchema: z.ZodObject<{
    keyPoints: z.ZodArray<z.ZodString>;
    nextSteps: z.ZodArray<z.ZodString>;
}, z.core.$strip>;

/** A schedule of that name exists in the namespace; nothing was changed. */
export declare class ScheduleExistsError extends DurableAgentError {
    readonly name = "ScheduleExistsError";
    readonly code = "SCHEDULE_EXISTS";
    readonly retryable = false;
}

/** One firing: the run it started, and when it was due and when it started. */
export declare interface ScheduleFiring {
    /** The run's workflow id: the schedule's prefix and the firing's time. */
    workflowId: string;
    /** When the firing was due (ISO). */
    scheduledAt: string;
    /** When its run started (ISO). */
    startedAt: string;
}

/** `skip` (the default), `buffer_one`, `allow_all` or `cancel_other`. */
export declare type ScheduleOverlap = z.infer<typeof ScheduleOverlapSchema>;

/** What happens when a firing comes while the schedule's previous run is still open (a parked run is open). */
export declare const ScheduleOverlapSchema: z.ZodEnum<{
    skip: "skip";
    buffer_one: "buffer_one";
    allow_all: "allow_all";
    cancel_other: "cancel_other";
}>;

/** Restricts an operation to the schedules of one task queue (the console's); others are "unknown". */
export declare interface ScheduleScope {
    /** Only schedules whose runs start on this task queue. */
    taskQueue?: string;
}

export declare type ScopeAction = 'allow' | 'ask' | 'reject';

/**
 * Sends a decision with the `decideApproval` update, so the caller learns whether it was applied.
 * Signed first when the approver has a key (sign-messages.ts). `pending` is the call as the run
 * listed it (a sub-agent's call names the run that waits for it, whose identity the signature
 * covers); the decision still goes to `handle`, which forwards it.
 */
export declare function sendDecision(handle: WorkflowHandle, decision: ApprovalDecision, pending?: PendingApproval): Promise<DecisionOutcome>;

/** A follow-up message for a thread (`sendMessage`, signed when `sender` has a key); a run that is not a thread refuses it. */
export declare function sendFollowUp(handle: WorkflowHandle, text: string, sender?: string): Promise<DecisionOutcome>;

/** The same message, acknowledged: answers when the agent's next turn starts; refused if the run takes no follow-ups. */
export declare const sendMessageUpdate: UpdateDefinition<DecisionOutcome, [{
text: string;
sender?: string | undefined;
signature?: string | undefined;
expiresAt?: string | undefined;
}], string>;

/** Sends a reply with the `submitReply` update (signed when `sender` has a key); refused when no question is waiting. */
export declare function sendReply(handle: WorkflowHandle, reply: UserReply): Promise<DecisionOutcome>;

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

/**
 * `decision`, signed by its approver when they have a key. `pending` reads the run's pending calls
 * (only when there is something to sign): the call's arguments, as the run reports them, are signed.
 */
export declare function signDecision(handle: WorkflowHandle, decision: ApprovalDecision, pending: () => Promise<readonly PendingApproval[]>): Promise<ApprovalDecision>;

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

export declare interface StartOptions {
    /** The run's workflow id (default: the agent's name, the time and a random suffix). */
    workflowId?: string;
    memo?: Record<string, unknown>;
}

/** Starts the run a plan describes; a second resume of the same run is refused, naming the first. */
export declare function startResumedRun(client: Client, plan: ResumePlan, taskQueue: string): Promise<WorkflowHandle<AgentRunWorkflow>>;

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

/**
 * Creates a schedule whose every firing starts an `agentRun` with `options.input`. Everything is checked
 * first (name, cron, time zone, overlap, the run input, the agent when a worker can say), so bad input
 * creates nothing; a name already taken gives ScheduleExistsError.
 */
export declare function startSchedule(client: Client, options: AgentScheduleOptions): Promise<CreatedSchedule>;

/** Read-only view of a run; also answers for closed runs, because the worker replays the history. */
export declare const statusQuery: QueryDefinition<RunStatus, [], string>;

/** The same answer, acknowledged: rejected when no question is waiting. */
export declare const submitReplyUpdate: UpdateDefinition<DecisionOutcome, [{
text: string;
callId?: string | undefined;
sender?: string | undefined;
signature?: string | undefined;
expiresAt?: string | undefined;
}], string>;

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

/** The `--json` event for new model text (a contract: scripts rely on its fields). */
export declare interface TextDeltaEvent {
    type: 'text_delta';
    workflowId: string;
    /** The run's iteration whose model call wrote it. */
    iteration: number;
    /** The attempt of that model call: a retried call starts its text over. */
    attempt: number;
    /** The new text; the deltas of one iteration and attempt, concatenated, are its text so far. */
    text: string;
    /** When the CLI read it (ISO time). */
    at: string;
}

/** The `--json` event for new thinking, shaped like `text_delta` (agentctl run/watch show it dimmed). */
export declare interface ThinkingDeltaEvent extends Omit<TextDeltaEvent, 'type'> {
    type: 'thinking_delta';
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

export declare function toListed(info: WorkflowExecutionInfo): ListedRun;

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

export declare type ToolScope = z.infer<typeof ToolScopeSchema>;

/** What a tool may touch; the approval policy maps each scope to allow / ask / reject. */
export declare const ToolScopeSchema: z.ZodEnum<{
    read: "read";
    write: "write";
    execute: "execute";
}>;

/** Where and how spans are exported: read from the standard OpenTelemetry variables once, with the other settings. */
export declare interface TracingSettings {
    url: string;
    headers: Record<string, string>;
    serviceName?: string;
}

export declare interface TriggerOptions extends ScheduleScope {
    /**
     * The overlap policy for this firing; default: the schedule's own, so with `skip` nothing starts
     * while a run of the schedule is open. `allow_all` starts one anyway, but Temporal does not count
     * such a run as the schedule's open run: later firings do not wait for it.
     */
    overlap?: ScheduleOverlap;
    /** How long to wait for the schedule to act (default 20 s); after it the outcome is `pending`. */
    waitMs?: number;
}

/** What a trigger came to. */
export declare type TriggerOutcome = 
/**
* A run started; its workflow id. Under `cancel_other` the server asks the open run to cancel and
* may start the new one before the old one has closed.
*/
    {
    outcome: 'started';
    workflowId: string;
}
/** Skipped by the overlap policy: these runs of the schedule are open. */
| {
    outcome: 'skipped';
    openRuns: string[];
}
/** Not acted on yet: buffered behind an open run (`buffer_one`, `cancel_other`), or the server is slow. */
| {
    outcome: 'pending';
    openRuns: string[];
};

/**
 * Fires a schedule now and reports what came of it: a run started (its workflow id), skipped by the
 * overlap policy, or still pending after `waitMs`.
 */
export declare function triggerSchedule(client: Client, name: string, options?: TriggerOptions): Promise<TriggerOutcome>;

/** An options object has a key nothing reads (a typo, or an environment variable outside `env`). */
export declare class UnknownOptionError extends DurableAgentError {
    readonly name = "UnknownOptionError";
    readonly code = "UNKNOWN_OPTION";
    readonly retryable = false;
}

/** No agent schedule has that name (none at all, or one that does not start agent runs); the message says which. */
export declare class UnknownScheduleError extends DurableAgentError {
    readonly name = "UnknownScheduleError";
    readonly code = "SCHEDULE_UNKNOWN";
    readonly retryable = false;
}

/** Unpauses a schedule: it fires again from its next due time (times missed while paused are not caught up). */
export declare function unpauseSchedule(client: Client, name: string, note?: string, scope?: ScheduleScope): Promise<AgentScheduleDescription>;

/** A follow-up message for a thread (a run started with `followUps: true`). Stored by the server while no worker runs. */
export declare const userMessageSignal: SignalDefinition<[{
text: string;
sender?: string | undefined;
signature?: string | undefined;
expiresAt?: string | undefined;
}], string>;

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

export declare interface WaitOptions {
    /** Give up after this long with RunWaitTimeoutError (default 60 s). */
    timeoutMs?: number;
    /** How often the status is read (default 200 ms). */
    pollMs?: number;
}

export { }
