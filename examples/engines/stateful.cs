// A stateful rule engine in C# 7: a research-style program (its state in lists, a step function that
// computes the next possible fields after each step) served over the engine protocol of
// docs/engine-protocol.md by an adapter that only ever steps: it cannot jump to a state, it replays the
// line's moves through the program's own Step. It keeps the last few instances (--keep K, default 8)
// and, when a request extends a kept state, steps on from a copy of it instead of from the start; its
// hello says "order": "depth-first", so the verifier sends states in an order where that is the rule.
// Build with Mono:      mcs -out:stateful.exe stateful.cs Protocol.cs   run: mono stateful.exe [--keep K] [--wrong]
//                                                                        [--totals FILE] [--work W]
// or with the .NET SDK: these two files in a console project (without its Program.cs), dotnet build.
//
// The rules are those of corners.c / corners.js / corners.cs (dead-end, early-end, forced-cell; --wrong
// adds wall-ahead), computed here from the board view the program recomputes after every step.
// Each answer carries "steps": how many Step calls it took (0: a kept state, 1: one move on from a
// kept state, the number of moves: replayed from the start); the verifier ignores fields it does not
// know. On exit the totals go to stderr, and with --totals FILE also onto the end of FILE. --work W
// recomputes the board view W times a step: a stand-in for a program whose step costs more (the
// benchmark bench/engine_order.py uses it to show where the order of states starts to matter).
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

/// <summary>The "research program". Such a program often is C# 9 top-level statements with its state in
/// globals (`var path = new List&lt;int[]&gt;(); int size = 7;` and a local function `Step`); under Mono's mcs
/// (C# 7) they go into a class, and made instance fields (not static) they let the adapter keep several
/// instances at once. Nothing else of the program changes.</summary>
class Labyrinth
{
    public static readonly string Moves = "UDLR";
    static readonly int[] DX = { 0, 0, -1, 1 }, DY = { -1, 1, 0, 0 };
    public static bool Wrong;
    public static int Work = 1;

    public int size;
    public List<int[]> path = new List<int[]>();   // the line: [x, y] from [1, 1]
    bool[,] taken;
    int[,] ways;                                    // every cell's free neighbours: the program's view of the board
    public List<int[]> next = new List<int[]>();   // the next possible fields: [x, y, move]
    public List<string>[] closed = new List<string>[4];  // per move U, D, L, R: why it is not possible (JSON reasons)
    public List<string> forced = new List<string>();     // the forces that fired (JSON)
    int last = 1;                                   // the heading: the last move (down before the first)

    public Labyrinth(int n)
    {
        size = n;
        taken = new bool[n + 2, n + 2];
        ways = new int[n + 2, n + 2];
        path.Add(new[] { 1, 1 });
        taken[1, 1] = true;
        Compute();
    }

    /// <summary>A copy that steps on independently (the adapter keeps instances this way).</summary>
    public Labyrinth Clone()
    {
        var copy = (Labyrinth)MemberwiseClone();
        copy.path = new List<int[]>(path);
        copy.taken = (bool[,])taken.Clone();
        copy.ways = (int[,])ways.Clone();
        copy.next = new List<int[]>(next);
        copy.closed = (List<string>[])closed.Clone();
        copy.forced = new List<string>(forced);
        return copy;
    }

    bool On(int x, int y) { return x >= 1 && y >= 1 && x <= size && y <= size; }
    bool Free(int x, int y) { return On(x, y) && !taken[x, y]; }
    bool IsEnd(int x, int y) { return x == size && y == size; }

    /// <summary>Move the head one field (any free neighbour: the verifier also asks about states the rules
    /// closed), then compute the next possible fields.</summary>
    public void Step(char move)
    {
        int m = Moves.IndexOf(move);
        int[] head = path[path.Count - 1];
        if (m < 0) throw new FormatException("not a move: " + move);
        if (!Free(head[0] + DX[m], head[1] + DY[m]))
            throw new FormatException("move " + path.Count + " (" + move + ") is not free");
        last = m;
        path.Add(new[] { head[0] + DX[m], head[1] + DY[m] });
        taken[head[0] + DX[m], head[1] + DY[m]] = true;
        Compute();
    }

    /// <summary>After each step: the whole board's view, then the rules at the head.</summary>
    void Compute()
    {
        for (int w = 0; w < Work; w++)
        for (int x = 1; x <= size; x++)
            for (int y = 1; y <= size; y++)
            {
                ways[x, y] = 0;
                for (int j = 0; j < 4; j++) if (Free(x + DX[j], y + DY[j])) ways[x, y]++;
            }
        int[] h = path[path.Count - 1];
        int free = size * size - path.Count;
        next.Clear();
        forced.Clear();
        var forcedCells = new List<int[]>();
        int wanted = -1;
        for (int m = 0; m < 4; m++)
        {
            closed[m] = new List<string>();
            int wx = h[0] + DX[m], wy = h[1] + DY[m];
            if (!Free(wx, wy) || IsEnd(h[0], h[1])) continue;
            if (IsEnd(wx, wy) && free > 1) closed[m].Add(Protocol.Reason("early-end", wx, wy));
            for (int k = 0; k < 4; k++) // the head's other free neighbours keep only the ways the view counts
            {
                int cx = h[0] + DX[k], cy = h[1] + DY[k];
                if (k != m && Free(cx, cy) && ways[cx, cy] < (IsEnd(cx, cy) ? 1 : 2))
                    closed[m].Add(Protocol.Reason("dead-end", cx, cy));
            }
            if (Wrong && m == last && !On(wx + DX[m], wy + DY[m])) closed[m].Add(Protocol.Reason("wall-ahead", wx, wy));
            if (!IsEnd(wx, wy) && ways[wx, wy] == 1)
            {
                forced.Add("{\"move\":\"" + Moves[m] + "\",\"rule\":\"forced-cell\",\"cells\":[[" + wx + "," + wy + "]]}");
                forcedCells.Add(new[] { wx, wy });
                wanted = wanted == -1 ? m : 4; // 4: two different forced moves
            }
        }
        for (int m = 0; m < 4; m++)
        {
            int wx = h[0] + DX[m], wy = h[1] + DY[m];
            if (!Free(wx, wy) || IsEnd(h[0], h[1]) || closed[m].Count > 0) continue;
            if (forced.Count > 0 && m != wanted)
            {
                foreach (var c in forcedCells) closed[m].Add(Protocol.Reason("forced-cell", c[0], c[1]));
                continue;
            }
            next.Add(new[] { wx, wy, m });
        }
    }
}

/// <summary>The adapter: the protocol's loop, and the instances it keeps.</summary>
static class Adapter
{
    class Kept
    {
        public int n;
        public string moves;
        public Labyrinth game;
        public long used;
    }

    static readonly List<Kept> kept = new List<Kept>();
    const int MaxN = 101;
    static int keep = 8;
    static string totalsFile;
    static long clock, states, steps, replays;

    static int Main(string[] args)
    {
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "--wrong") Labyrinth.Wrong = true;
            else if (args[i] == "--keep" && i + 1 < args.Length && int.TryParse(args[++i], out keep) && keep >= 1) { }
            else if (args[i] == "--totals" && i + 1 < args.Length) totalsFile = args[++i];
            else if (args[i] == "--work" && i + 1 < args.Length && int.TryParse(args[++i], out Labyrinth.Work)
                     && Labyrinth.Work >= 1) { }
            else
            {
                Console.Error.WriteLine("stateful.exe: bad arguments '" + string.Join(" ", args) +
                                        "' (usage: [--keep K, K >= 1] [--wrong] [--totals FILE] [--work W, W >= 1])");
                return 2;
            }
        }
        Protocol.Serve("{\"type\":\"hello\",\"protocol\":1,\"engine\":\"stateful-cs" + (Labyrinth.Wrong ? "-wrong" : "") +
                       "\",\"version\":\"1\",\"sizes\":{\"min\":3,\"max\":" + MaxN + "},\"batch\":true,\"max_batch\":" +
                       Protocol.MaxBatch + ",\"order\":\"depth-first\"}", Decide);
        string totals = "stateful: " + states + " states, " + steps + " steps, " + replays + " replayed from the start";
        Console.Error.WriteLine(totals);
        if (totalsFile != null) File.AppendAllText(totalsFile, totals + "\n");
        return 0;
    }

    /// <summary>The program at the state "N:MOVES": a kept instance, a copy of the longest kept one the state
    /// extends stepped on, or (none) a new one stepped from the start. Every kept prefix of the state counts
    /// as used, so the line's ancestors stay kept while the verifier works below them.</summary>
    static Labyrinth Reach(string text, out int stepped)
    {
        string moves;
        int n = Protocol.Size(text, MaxN, out moves);
        Kept best = null;
        clock++;
        foreach (var k in kept) // shortest first below, so a longer kept prefix is the more recently used
            if (k.n == n && moves.StartsWith(k.moves, StringComparison.Ordinal))
            {
                k.used = clock + k.moves.Length;
                if (best == null || k.moves.Length > best.moves.Length) best = k;
            }
        clock += moves.Length + 1;
        if (best != null && best.moves.Length == moves.Length)
        {
            stepped = 0;
            return best.game;
        }
        Labyrinth game;
        if (best == null)
        {
            game = new Labyrinth(n);
            replays++;
        }
        else
        {
            game = best.game.Clone();
        }
        int from = best == null ? 0 : best.moves.Length;
        try
        {
            for (int i = from; i < moves.Length; i++) game.Step(moves[i]);
        }
        catch (FormatException e)
        {
            throw new FormatException(e.Message + " in " + text);
        }
        stepped = moves.Length - from;
        steps += stepped;
        kept.Add(new Kept { n = n, moves = moves, game = game, used = clock });
        if (kept.Count > keep) kept.RemoveAt(LeastRecentlyUsed());
        return game;
    }

    static int LeastRecentlyUsed()
    {
        int oldest = 0;
        for (int i = 1; i < kept.Count; i++) if (kept[i].used < kept[oldest].used) oldest = i;
        return oldest;
    }

    /// <summary>The fields of one answer (without braces), read from the program's own lists.</summary>
    static string Decide(string text)
    {
        int stepped;
        var game = Reach(text, out stepped);
        states++;
        var allowed = new StringBuilder();
        foreach (var f in game.next) allowed.Append(Labyrinth.Moves[f[2]]);
        return Protocol.Fields(text, allowed.ToString(), game.forced, game.closed, ",\"steps\":" + stepped);
    }
}
