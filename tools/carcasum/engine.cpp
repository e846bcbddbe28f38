// engine.cpp: an adapter that lets Carcasum's MCTS player (TripleWhy's
// Carcasum, 2014) take a seat in `carcassonne arena` as an outside engine.
//
// It reads the engine protocol of docs/protocol.md on standard input and
// answers on standard output, one JSON object a line. It keeps a Carcasum
// Game in step with the controller's game (every `move` is applied to it)
// and, on `go`, runs Carcasum's MCTSPlayer on that Game and writes the move
// it chose in the record notation of docs/record.md.
//
// A second process, this project's `carcassonne engine` (the referee),
// follows the same game: it checks every move Carcasum proposes before it is
// sent, and after every move the adapter compares the scores, the followers
// in supply and the tiles left of both programs and warns on standard error
// when they differ. Carcasum scores a finished two-tile city without a
// pennant 2 points where our standard rules give 4 (the old editions' small
// city, our rule `small-city`); under the standard rules the comparison adds
// that difference to Carcasum's scores, and counts it.
//
// Build: tools/carcasum/build.sh CARCASUM_SRC OUTDIR (see README.md).

#include "core/game.h"
#include "core/board.h"
#include "core/tile.h"
#include "jcz/tilefactory.h"
#include "player/mctsplayer.h"
#include "player/randomplayer.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CARCASUM_REFEREE_DEFAULT
#define CARCASUM_REFEREE_DEFAULT ""
#endif

namespace {

// ---------------------------------------------------------------- ports
// Our twelve ports, clockwise from the north edge's west half.
const char *const kPorts[12] = {"NNW", "N", "NNE", "ENE", "E", "ESE",
                                "SSE", "S", "SSW", "WSW", "W", "WNW"};
// Board offset: Carcasum's board is (2 * 72 - 1) squares wide and puts the
// start tile in its middle square; our start tile is at (0, 0).
const int kOffset = 71;

int portIndex(const std::string &name) {
    for (int i = 0; i < 12; ++i)
        if (name == kPorts[i]) return i;
    return -1;
}

// Our edge number (0 north, 1 east, 2 south, 3 west) of a Carcasum side.
int edgeOfSide(int side) {
    switch (side) {
    case Tile::up: return 0;
    case Tile::right: return 1;
    case Tile::down: return 2;
    default: return 3;  // Tile::left
    }
}

// The ports (rotation 0) that each node of an unplaced Carcasum tile holds,
// read back from Carcasum's own edge tables: entry 1 of an edge is a whole
// field or city edge, or a road's middle; entries 0 and 2 are the right and
// left halves beside a road, seen from the tile's centre.
std::vector<std::vector<int>> nodePorts(const Tile *t) {
    std::vector<std::vector<int>> ports(t->getNodeCount());
    const Node *const *nodes = t->getNodes();
    for (int side = 0; side < 4; ++side) {
        int e = edgeOfSide(side);
        TerrainType terrain = t->getEdge((Tile::Side)side, Tile::left);
        for (int k = 0; k < 3; ++k) {
            const Node *n = t->getEdgeNode((Tile::Side)side, k, Tile::left);
            if (!n) continue;
            int j = 0;
            while (j < t->getNodeCount() && nodes[j] != n) ++j;
            if (j == t->getNodeCount()) continue;
            if (terrain == Road) {
                // k 0 = right half, 1 = middle, 2 = left half
                int p = (k == 1) ? 3 * e + 1 : (k == 2 ? 3 * e : 3 * e + 2);
                ports[j].push_back(p);
            } else {
                for (int q = 0; q < 3; ++q) ports[j].push_back(3 * e + q);
            }
        }
    }
    return ports;
}

// ------------------------------------------------------------- referee
// Our own `carcassonne engine`, as a child on two pipes.
class Referee {
public:
    bool start(const std::string &program) {
        if (program.empty() || access(program.c_str(), X_OK) != 0) return false;
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0) return false;
        pid_ = fork();
        if (pid_ < 0) return false;
        if (pid_ == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            close(in[0]); close(in[1]); close(out[0]); close(out[1]);
            execl(program.c_str(), program.c_str(), "engine", "--player", "random", (char *)nullptr);
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_ = fdopen(in[1], "w");
        from_ = fdopen(out[0], "r");
        return to_ && from_;
    }
    bool running() const { return to_ != nullptr; }
    QJsonObject ask(const QJsonObject &request) {
        if (!to_) return QJsonObject();
        QByteArray line = QJsonDocument(request).toJson(QJsonDocument::Compact);
        fwrite(line.constData(), 1, line.size(), to_);
        fputc('\n', to_);
        fflush(to_);
        std::string reply;
        int c;
        while ((c = fgetc(from_)) != EOF && c != '\n') reply.push_back((char)c);
        if (c == EOF && reply.empty()) {
            fprintf(stderr, "carcasum-engine: warning: the referee stopped answering\n");
            fclose(to_); to_ = nullptr;
            return QJsonObject();
        }
        return QJsonDocument::fromJson(QByteArray::fromStdString(reply)).object();
    }
    ~Referee() {
        if (to_) { fclose(to_); to_ = nullptr; }
        if (from_) { fclose(from_); from_ = nullptr; }
        if (pid_ > 0) { kill(pid_, SIGTERM); waitpid(pid_, nullptr, 0); }
    }
private:
    pid_t pid_ = -1;
    FILE *to_ = nullptr;
    FILE *from_ = nullptr;
};

// -------------------------------------------------------- score listener
// Counts what our rules give on top of Carcasum's scoring: 2 more points to
// each owner of a finished two-tile city without a pennant.
class RuleDifference : public ScoreListener {
public:
    std::vector<int> extra;
    int smallCities = 0;
    bool counting = true;  // false when the game's rules are small-city too
    void reset(int players, bool count) {
        extra.assign(players, 0);
        smallCities = 0;
        counting = count;
    }
    void nodeScored(Node const *n, const int score, Game const *game) override {
        if (!counting || n->getTerrain() != City || score != 2) return;
        if (!static_cast<CityNode const *>(n)->isClosed()) return;
        ++smallCities;
        uchar most = n->getMaxMeeples();
        for (uint p = 0; p < game->getPlayerCount(); ++p)
            if (most > 0 && n->getPlayerMeeples(p) == most) extra[p] += 2;
    }
    void nodeUnscored(Node const *, const int, Game const *) override {}  // the adapter never undoes
};

class NoTileProvider : public NextTileProvider {
public:
    int nextTile(Game const *) override { return 0; }  // never asked: the adapter plays with simStep
};

typedef MCTSPlayer<Utilities::PortionUtility, Playouts::RandomPlayout> Carcasum;

// ----------------------------------------------------------------- adapter
class Adapter {
public:
    Adapter(int optMs, const std::string &refereeProgram)
        : optMs_(optMs), factory_(false) {
        if (!referee_.start(refereeProgram))
            fprintf(stderr, "carcasum-engine: no referee (%s): moves go unchecked\n",
                    refereeProgram.empty() ? "none given" : refereeProgram.c_str());
    }

    // One request line in, one reply object out. `stop` is set by quit.
    QJsonObject handle(const QJsonObject &req, bool &stop) {
        QString type = req.value("type").toString();
        if (type == "hello")
            return QJsonObject{{"type", "hello"}, {"protocol", 4}, {"name", "carcasum-engine"},
                               {"player", "Carcasum MCTSPlayer<PortionUtility, RandomPlayout>"}};
        if (type == "quit") { stop = true; return QJsonObject{{"type", "bye"}}; }
        if (type == "new") return onNew(req);
        if (!game_) return error("no game: send new first");
        if (type == "tile") return onTile(req);
        if (type == "move") return onMove(req);
        if (type == "go") return onGo(req);
        if (type == "end") return onEnd(req);
        if (referee_.running()) return referee_.ask(req);  // state, legal, try, ...
        return error("unknown request");
    }

private:
    int optMs_;
    jcz::TileFactory factory_;
    Referee referee_;
    NoTileProvider ntp_;
    RuleDifference diff_;
    std::unique_ptr<Game> game_;
    std::unique_ptr<Carcasum> mcts_;
    int mctsMs_ = -1;
    int players_ = 2, seat_ = 0;
    std::string drawn_;       // the tile the player to move has drawn, if told
    bool over_ = false;
    long long playoutsTotal_ = 0;
    double thinkTotal_ = 0;
    int warnings_ = 0;

    static QJsonObject error(const QString &msg) {
        return QJsonObject{{"type", "error"}, {"message", msg}};
    }
    void warn(const std::string &what) {
        ++warnings_;
        fprintf(stderr, "carcasum-engine: SYNC WARNING: %s\n", what.c_str());
    }

    QJsonObject onNew(const QJsonObject &req) {
        players_ = req.value("players").toInt(2);
        seat_ = req.value("seat").toInt(0);
        if (players_ < 2 || players_ > MAX_PLAYERS || seat_ < 0 || seat_ >= players_)
            return error("players 2..6 and a seat among them");
        if (!req.value("expansions").toArray().isEmpty())
            return error("Carcasum plays the base game only");
        // Carcasum plays one variant of ours, the old editions' small city:
        // with it both programs score alike, without it the difference is added.
        bool smallCity = false;
        for (const QJsonValue &r : req.value("rules").toArray()) {
            if (r.toString() != "small-city")
                return error("Carcasum plays the standard rules or small-city only, not " +
                             r.toString());
            smallCity = true;
        }
        if (referee_.running()) {
            QJsonObject r = referee_.ask(req);
            if (r.value("type").toString() != "ok") return r;
        }
        mcts_.reset();
        game_.reset(new Game(&ntp_, true));
        game_->addView(&diff_);
        diff_.reset(players_, !smallCity);
        for (int i = 0; i < players_; ++i) game_->addPlayer(&RandomPlayer::instance);
        game_->newGame(Tile::BaseGame, &factory_);
        drawn_.clear();
        over_ = false;
        if (game_->getTileCount() != 71)
            warn("Carcasum's pile holds " + std::to_string(game_->getTileCount()) + " tiles, not 71");
        return QJsonObject{{"type", "ok"}, {"expansions", QJsonArray()}};
    }

    int typeOf(const std::string &id) const {
        if (id.size() != 1 || id[0] < 'A' || id[0] > 'X') return -1;
        return id[0] - 'A';
    }
    bool inPile(int type) const {
        auto const &counts = game_->getTileCounts();
        return type >= 0 && type < counts.size() && counts[type] > 0;
    }

    QJsonObject onTile(const QJsonObject &req) {
        std::string id = req.value("tile").toString().toStdString();
        int type = typeOf(id);
        if (type < 0) return error("not a base-game tile");
        if (!inPile(type)) return error("that tile is not in the pile");
        if (referee_.running()) {
            QJsonObject r = referee_.ask(req);
            if (r.value("type").toString() != "ok") return r;
        }
        drawn_ = id;
        return QJsonObject{{"type", "ok"}};
    }

    // "D 1 0 2 NNE" -> Carcasum history entry (tile still in the pile).
    bool parseMove(const std::string &text, MoveHistoryEntry &entry, std::string &why) {
        std::vector<std::string> w;
        size_t i = 0;
        while (i < text.size()) {
            while (i < text.size() && text[i] == ' ') ++i;
            size_t j = i;
            while (j < text.size() && text[j] != ' ') ++j;
            if (j > i) w.push_back(text.substr(i, j - i));
            i = j;
        }
        if (w.size() == 2 && w[0] == "discard") {
            int type = typeOf(w[1]);
            if (!inPile(type)) { why = "discarded tile not in Carcasum's pile"; return false; }
            entry.tileIndex = game_->getTileIndexByType(type);
            entry.tileType = (TileTypeType)type;
            entry.move = Move();
            if (game_->getPossibleTilePlacements(game_->getTiles()[entry.tileIndex]).size() != 0)
                warn("a discard of " + w[1] + " that Carcasum could place");
            return true;
        }
        if (w.size() < 4 || w.size() > 5) { why = "cannot read the move"; return false; }
        int type = typeOf(w[0]);
        if (!inPile(type)) { why = "tile " + w[0] + " not in Carcasum's pile"; return false; }
        int x = atoi(w[1].c_str()), y = atoi(w[2].c_str()), rot = atoi(w[3].c_str());
        if (rot < 0 || rot > 3) { why = "bad rotation"; return false; }
        entry.tileIndex = game_->getTileIndexByType(type);
        entry.tileType = (TileTypeType)type;
        Tile const *t = game_->getTiles()[entry.tileIndex];
        entry.move.tileMove = TileMove((uint)(x + kOffset), (uint)(y + kOffset), (Tile::Side)rot);
        entry.move.meepleMove = MeepleMove();
        // Carcasum lists one rotation of a symmetric tile; accept the move if its
        // square takes this rotation or one with the same edges.
        auto const &possible = game_->getPossibleTilePlacements(t);
        bool fits = false;
        for (TileMove const &m : possible) {
            if (m.x != entry.move.tileMove.x || m.y != entry.move.tileMove.y) continue;
            bool same = true;
            for (int s = 0; s < 4; ++s)
                if (t->getEdge((Tile::Side)s, m.orientation) != t->getEdge((Tile::Side)s, (Tile::Side)rot)) same = false;
            if (same) fits = true;
        }
        if (!fits) { why = "Carcasum finds no such placement"; return false; }
        if (w.size() == 5) {
            int node = -1;
            if (w[4] == "C") {
                for (int j = 0; j < t->getNodeCount(); ++j)
                    if (t->getNode(j)->getTerrain() == Cloister) node = j;
            } else {
                int board = portIndex(w[4]);
                if (board < 0) { why = "unknown spot " + w[4]; return false; }
                int local = (board - 3 * rot + 12) % 12;
                auto ports = nodePorts(t);
                for (size_t j = 0; j < ports.size(); ++j)
                    for (int p : ports[j])
                        if (p == local) node = (int)j;
            }
            if (node < 0) { why = "no part of the tile at spot " + w[4]; return false; }
            entry.move.meepleMove = MeepleMove((uchar)node);
        }
        return true;
    }

    // Carcasum's move -> record notation.
    std::string writeMove(Tile const *t, TileMove const &tm, MeepleMove const &mm) {
        int x = (int)tm.x - kOffset, y = (int)tm.y - kOffset, rot = (int)tm.orientation;
        std::string s = std::string(1, (char)('A' + t->tileType)) + " " + std::to_string(x) + " " +
                        std::to_string(y) + " " + std::to_string(rot);
        if (!mm.isNull()) {
            Node const *n = t->getNode(mm.nodeIndex);
            if (n->getTerrain() == Cloister) {
                s += " C";
            } else {
                auto ports = nodePorts(t);
                int best = 12;
                for (int p : ports[mm.nodeIndex]) best = std::min(best, (p + 3 * rot) % 12);
                s += std::string(" ") + kPorts[best];
            }
        }
        return s;
    }

    void compare(const char *when, const QJsonArray *finalScores = nullptr) {
        int const *scores = game_->getScores();
        std::vector<int> ours(players_);
        for (int p = 0; p < players_; ++p) ours[p] = scores[p] + diff_.extra[p];
        if (finalScores) {
            for (int p = 0; p < players_ && p < finalScores->size(); ++p)
                if (finalScores->at(p).toInt() != ours[p])
                    warn(std::string(when) + ": player " + std::to_string(p) + " scores " +
                         std::to_string(finalScores->at(p).toInt()) + " for the arena, " +
                         std::to_string(ours[p]) + " for Carcasum (" + std::to_string(scores[p]) +
                         " before the small-city difference)");
        }
        if (!referee_.running()) return;
        QJsonObject st = referee_.ask(QJsonObject{{"type", "state"}});
        QJsonArray rs = st.value("scores").toArray(), sup = st.value("supply").toArray();
        for (int p = 0; p < players_; ++p) {
            if (rs.at(p).toInt() != ours[p])
                warn(std::string(when) + ": player " + std::to_string(p) + " has " +
                     std::to_string(rs.at(p).toInt()) + " points in our engine, " +
                     std::to_string(ours[p]) + " in Carcasum (" + std::to_string(scores[p]) +
                     " before the small-city difference)");
            // after the final scoring Carcasum sends every follower home, ours leaves them
            if (!game_->isFinished() && sup.at(p).toInt() != game_->getPlayerMeeples(p))
                warn(std::string(when) + ": player " + std::to_string(p) + " has " +
                     std::to_string(sup.at(p).toInt()) + " followers in supply in our engine, " +
                     std::to_string(game_->getPlayerMeeples(p)) + " in Carcasum");
        }
        // our `left` leaves out the tile drawn next; Carcasum's count still holds it
        int carcLeft = game_->isFinished() ? game_->getTileCount() : game_->getTileCount() - 1;
        if (st.value("left").toInt() != carcLeft)
            warn(std::string(when) + ": " + std::to_string(st.value("left").toInt()) +
                 " tiles left in our engine, " + std::to_string(carcLeft) + " in Carcasum (after the next draw)");
        if (st.value("over").toBool() != game_->isFinished())
            warn(std::string(when) + ": the game is over in one program only");
    }

    QJsonObject onMove(const QJsonObject &req) {
        if (over_ || game_->isFinished()) return error("the game is over");
        std::string text = req.value("move").toString().toStdString();
        MoveHistoryEntry entry;
        std::string why;
        if (!parseMove(text, entry, why)) {
            if (referee_.running()) {
                QJsonObject r = referee_.ask(req);  // our engine decides what is legal
                if (r.value("type").toString() == "ok")
                    warn("move '" + text + "' is legal for our engine but not for Carcasum: " + why);
                return r.value("type").toString() == "ok" ? error(QString::fromStdString("Carcasum: " + why)) : r;
            }
            return error(QString::fromStdString(why));
        }
        // a follower needs the player's supply; whether its feature is free
        // can only be seen once the tile lies (our engine's check, below)
        if (!entry.move.meepleMove.isNull() && game_->getPlayerMeeples(game_->getNextPlayer()) <= 0)
            warn("move '" + text + "': Carcasum's player has no follower left");
        QJsonObject reply{{"type", "ok"}, {"events", QJsonArray()}};
        if (referee_.running()) {
            reply = referee_.ask(req);
            if (reply.value("type").toString() != "ok") return reply;  // illegal for us: change nothing
        }
        int mover = game_->getNextPlayer();
        Tile *tile = game_->getTiles()[entry.tileIndex];
        // (Whether the follower's feature is free is our engine's check above: a
        // trial placement in Carcasum would score and unscore, and Carcasum's
        // unscoring assumes the followers already went home.)
        game_->simStep(entry);
        drawn_.clear();
        if (mcts_) mcts_->playerMoved(mover, tile, entry);
        if (game_->isFinished()) over_ = true;
        compare(("after '" + text + "'").c_str());
        return reply;
    }

    QJsonObject onGo(const QJsonObject &req) {
        if (over_ || game_->isFinished()) return error("the game is over");
        if (drawn_.empty()) return error("no tile drawn: send tile first");
        int ms = optMs_ > 0 ? optMs_ : 1000;
        if (req.contains("ms") && req.value("ms").toInt() > 0)
            ms = optMs_ > 0 ? std::min(optMs_, req.value("ms").toInt()) : req.value("ms").toInt();
        int player = game_->getNextPlayer();
        int type = typeOf(drawn_);
        int index = game_->getTileIndexByType(type);
        Tile const *t = game_->getTiles()[index];
        TileMovesType placements = game_->getPossibleTilePlacements(t);
        if (placements.size() == 0)
            return QJsonObject{{"type", "move"}, {"move", QString::fromStdString("discard " + drawn_)}};
        if (!mcts_ || mctsMs_ != ms) {
            // m is fixed when Carcasum's player is made: make it again for a new budget
            mcts_.reset(new Carcasum(&factory_, false, ms, true, 0.5, false, false, false));
            mctsMs_ = ms;
            mcts_->newGame(seat_, game_.get());
        }
        if (player != seat_)
            fprintf(stderr, "carcasum-engine: go for player %d, seat %d\n", player, seat_);
        MoveHistoryEntry entry;
        entry.tileIndex = index;
        entry.tileType = (TileTypeType)type;
        int before = mcts_->playouts;
        QElapsedTimer clock;
        clock.start();
        TileMove tm = mcts_->getTileMove(player, t, entry, placements);
        MeepleMove mm;
        if (game_->getPlayerMeeples(player) > 0) mm = mcts_->getMeepleMove(player, t, entry, MeepleMovesType(1));
        double seconds = clock.nsecsElapsed() / 1e9;
        int playouts = mcts_->playouts - before;
        playoutsTotal_ += playouts;
        thinkTotal_ += seconds;
        std::string move = writeMove(t, tm, mm);
        fprintf(stderr, "carcasum-engine: %s  (%d playouts in %.2f s, %.0f/s)\n", move.c_str(),
                playouts, seconds, seconds > 0 ? playouts / seconds : 0.0);
        if (referee_.running()) {
            QJsonObject legal = referee_.ask(QJsonObject{{"type", "legal"}});
            bool listed = false;
            for (auto const &m : legal.value("moves").toArray())
                if (m.toObject().value("move").toString().toStdString() == move) listed = true;
            if (!listed) {
                QJsonObject tr = referee_.ask(QJsonObject{{"type", "try"}, {"move", QString::fromStdString(move)}});
                // sent all the same: the arena forfeits the game, which shows
                // in its result instead of a move Carcasum did not choose
                if (tr.value("type").toString() != "try")
                    warn("Carcasum chose '" + move + "', which our engine refuses: " +
                         tr.value("message").toString().toStdString());
            }
        }
        return QJsonObject{{"type", "move"}, {"move", QString::fromStdString(move)},
                           {"iterations", playouts}, {"seconds", seconds}};
    }

    QJsonObject onEnd(const QJsonObject &req) {
        QJsonObject reply{{"type", "ok"}, {"events", QJsonArray()}};
        if (referee_.running()) reply = referee_.ask(req);
        if (!game_->isFinished()) game_->simEndGame();  // the game stops early: final scoring
        over_ = true;
        QJsonArray finals = req.value("scores").toArray();
        compare("at the end", req.contains("scores") ? &finals : nullptr);
        int const *s = game_->getScores();
        std::string line;
        for (int p = 0; p < players_; ++p)
            line += (p ? " " : "") + std::to_string(s[p]) + "+" + std::to_string(diff_.extra[p]);
        fprintf(stderr, "carcasum-engine: game over: Carcasum's scores (+ small-city difference): %s; "
                        "%d two-tile cities; %lld playouts in %.1f s of thought (%.0f/s); %d sync warnings\n",
                line.c_str(), diff_.smallCities, playoutsTotal_, thinkTotal_,
                thinkTotal_ > 0 ? playoutsTotal_ / thinkTotal_ : 0.0, warnings_);
        return reply;
    }
};

// A self-test of the tile mapping: every kind's parts as Carcasum read them
// from basic.xml, in our port names, for comparison with src/tile_data.c.
int selfTest() {
    jcz::TileFactory factory(true);
    NoTileProvider ntp;
    Game game(&ntp);
    game.addPlayer(&RandomPlayer::instance);
    game.addPlayer(&RandomPlayer::instance);
    game.newGame(Tile::BaseGame, &factory);
    printf("tiles in the pile: %d, start tile: %c\n", game.getTileCount(),
           'A' + game.getBoard()->getTile(kOffset, kOffset)->tileType);
    const char *terrain[] = {"none", "field", "city", "road", "cloister"};
    for (int type = 0; type < 24; ++type) {
        Tile const *t = game.getTileByType(type);
        printf("%c x%d:", 'A' + type, (int)game.getTileCounts()[type]);
        auto ports = nodePorts(t);
        for (int j = 0; j < t->getNodeCount(); ++j) {
            Node const *n = t->getNode(j);
            printf(" %d=%s%s{", j, terrain[n->getTerrain()],
                   (n->getTerrain() == City && n->getScore() == 2) ? "+" : "");
            for (size_t k = 0; k < ports[j].size(); ++k) printf("%s%s", k ? " " : "", kPorts[ports[j][k]]);
            if (n->getTerrain() == Field) {
                auto const &cities = static_cast<FieldNode const *>(n)->getFieldData()->cities;
                printf("} borders");
                for (CityNode *c : cities)
                    for (int q = 0; q < t->getNodeCount(); ++q)
                        if (t->getNode(q) == c) printf(" %d", q);
                printf(";");
            } else {
                printf("};");
            }
        }
        printf("\n");
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    int ms = 0;
    std::string referee = getenv("CARCASUM_REFEREE") ? getenv("CARCASUM_REFEREE") : CARCASUM_REFEREE_DEFAULT;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--ms" && i + 1 < argc) ms = atoi(argv[++i]);
        else if (a == "--referee" && i + 1 < argc) referee = argv[++i];
        else if (a == "--no-referee") referee.clear();
        else if (a == "--selftest") return selfTest();
        else {
            fprintf(stderr, "usage: carcasum-engine [--ms MS] [--referee CARCASSONNE | --no-referee] [--selftest]\n");
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    Adapter adapter(ms, referee);
    std::string line;
    bool stop = false;
    while (!stop && std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        QJsonParseError err;
        QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(line), &err);
        QJsonObject reply;
        if (err.error != QJsonParseError::NoError || !doc.isObject())
            reply = QJsonObject{{"type", "error"}, {"message", "not a JSON object"}};
        else
            reply = adapter.handle(doc.object(), stop);
        QByteArray out = QJsonDocument(reply).toJson(QJsonDocument::Compact);
        fwrite(out.constData(), 1, out.size(), stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
    return 0;
}
