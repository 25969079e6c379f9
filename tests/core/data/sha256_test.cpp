#include "core/data/sha256.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using dpsynth::core::data::Sha256;
using dpsynth::core::data::sha256File;
using dpsynth::core::data::sha256Hex;

/// FIPS 180-4 / NIST example vectors: a wrong round constant, rotation or padding rule changes
/// every one of them.
class Sha256Test : public QObject {
  Q_OBJECT

 private slots:
  /// The stoppable form hashes in 1 MiB steps: the same digest across step boundaries, and
  /// nothing when a stop was requested.
  void stoppableDigestIsTheSame() {
    std::string bytes((3 << 20) + 17, 'a');
    for (std::size_t i = 0; i < bytes.size(); i += 4099) bytes[i] = static_cast<char>(i % 251);
    const std::optional<std::string> stepped = sha256Hex(bytes, std::stop_token{});
    QVERIFY(stepped.has_value());
    QCOMPARE(*stepped, sha256Hex(bytes));
    std::stop_source stop;
    stop.request_stop();
    QVERIFY(!sha256Hex(bytes, stop.get_token()).has_value());
  }

  void knownVectors_data() {
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("digest");
    QTest::newRow("empty") << QByteArray()
                           << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    QTest::newRow("abc") << QByteArray("abc")
                         << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    // 56 bytes: the padding needs a second block.
    QTest::newRow("two blocks")
        << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    QTest::newRow("112 bytes")
        << QByteArray(
               "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
               "klmnopqrlmnopqrsmnopqrstnopqrstu")
        << "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
  }
  void knownVectors() {
    QFETCH(QByteArray, input);
    QFETCH(QString, digest);
    QCOMPARE(QString::fromStdString(sha256Hex(input.toStdString())), digest);
  }

  void millionA() {
    // Fed in uneven pieces so that the buffering across update() calls is exercised.
    Sha256 hasher;
    const std::string piece(997, 'a');
    std::size_t left = 1'000'000;
    while (left > 0) {
      const std::size_t take = std::min(left, piece.size());
      hasher.update(std::string_view(piece.data(), take));
      left -= take;
    }
    QCOMPARE(QString::fromStdString(hasher.hexDigest()),
             QString("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
  }

  void fileDigestEqualsStringDigest() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("x.csv").toStdString();
    std::string text;
    for (int i = 0; i < 100000; ++i) text += std::to_string(i) + "\n";
    std::ofstream(path, std::ios::binary) << text;
    QCOMPARE(sha256File(path), sha256Hex(text));
  }

  void missingFileThrows() {
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, sha256File("/nonexistent/dpsynth/file.csv"));
  }
};

QTEST_APPLESS_MAIN(Sha256Test)
#include "sha256_test.moc"
